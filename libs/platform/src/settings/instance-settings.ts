import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  AdminPatterns,
  SETTINGS_CHANGED_SUBJECT,
  SETTINGS_REGISTRY,
  SettingDefinition,
  settingDefinition,
  SettingKey,
  SettingOverridesReply,
  SettingsChangedEvent,
  settingValueError,
} from '@social/contracts';
import type { Logger } from 'pino';
import { RpcClient } from '../rpc/rpc-client.js';

export type SettingSource = 'database' | 'environment' | 'default';

export interface ResolvedSetting {
  value: string;
  source: SettingSource;
}

/**
 * Effective value of one setting: the database override, else the first
 * environment variable that holds a valid value, else the default. An
 * invalid environment value is skipped (and reported by `invalidEnvironment`).
 */
export function resolveSetting(
  definition: SettingDefinition,
  overrides: Record<string, string>,
  env: NodeJS.ProcessEnv,
): ResolvedSetting {
  const override = overrides[definition.key];
  if (override !== undefined) return { value: override, source: 'database' };
  for (const name of definition.environment_variables) {
    const raw = env[name];
    if (raw !== undefined && raw !== '' && !settingValueError(definition, raw)) return { value: raw, source: 'environment' };
  }
  return { value: definition.default, source: 'default' };
}

/** Environment variables of the registry whose value is not valid for their setting. */
export function invalidEnvironment(env: NodeJS.ProcessEnv): string[] {
  return SETTINGS_REGISTRY.flatMap((definition) =>
    definition.environment_variables
      .filter((name) => env[name] !== undefined && env[name] !== '' && settingValueError(definition, env[name]!))
      .map((name) => `${name} (${settingValueError(definition, env[name]!)})`),
  );
}

export interface LoadInstanceSettingsOptions {
  /** How long start-up may wait for the admin service before falling back. */
  waitMs?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * The one way a service reads instance settings (contract §3). At start-up it
 * asks the admin service for the saved overrides; services start together, so
 * it retries for a short while and then falls back to environment and
 * defaults (logged), never blocking start-up. Values stay as they were at
 * start-up, except settings marked `live`: those are re-read whenever the
 * admin service announces a change (and, after a fallback, until it answers).
 */
export class InstanceSettings {
  private subscription?: Subscription;
  private retryTimer?: NodeJS.Timeout;

  private constructor(
    private overrides: Record<string, string>,
    private readonly env: NodeJS.ProcessEnv,
    private readonly rpc: RpcClient | undefined,
    private readonly logger: Logger | undefined,
  ) {}

  /** Settings from overrides already known (the admin service itself, tests). */
  static fromOverrides(overrides: Record<string, string>, env: NodeJS.ProcessEnv = process.env): InstanceSettings {
    return new InstanceSettings({ ...overrides }, env, undefined, undefined);
  }

  static async load(nats: NatsConnection, logger: Logger, options: LoadInstanceSettingsOptions = {}): Promise<InstanceSettings> {
    const rpc = new RpcClient(nats, 1_000);
    const env = options.env ?? process.env;
    const invalid = invalidEnvironment(env);
    if (invalid.length > 0) logger.warn({ invalid }, 'ignoring invalid instance-setting environment values');
    const deadline = Date.now() + (options.waitMs ?? 15_000);
    let overrides: Record<string, string> | undefined;
    while (!overrides) {
      overrides = await fetchOverrides(rpc).catch(() => undefined);
      if (overrides || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const settings = new InstanceSettings(overrides ?? {}, env, rpc, logger);
    if (!overrides) {
      logger.warn('admin service did not answer: instance settings from the environment and defaults until it does (live ones only)');
      settings.retryLive();
    }
    settings.subscription = nats.subscribe(SETTINGS_CHANGED_SUBJECT, {
      callback: (error, msg) => {
        if (error) return;
        const event = msg.json<SettingsChangedEvent>();
        if (event.keys.some((key) => settingDefinition(key)?.live)) void settings.refreshLive();
      },
    });
    return settings;
  }

  close(): void {
    this.subscription?.unsubscribe();
    clearTimeout(this.retryTimer);
  }

  resolved(key: SettingKey): ResolvedSetting {
    return resolveSetting(settingDefinition(key)!, this.overrides, this.env);
  }

  string(key: SettingKey): string {
    return this.resolved(key).value;
  }

  boolean(key: SettingKey): boolean {
    return this.string(key) === 'true';
  }

  integer(key: SettingKey): number {
    return Number(this.string(key));
  }

  list(key: SettingKey): string[] {
    const value = this.string(key);
    return value === '' ? [] : value.split(',').map((item) => item.trim());
  }

  /** Re-reads the overrides and takes the new values of `live` settings only. */
  async refreshLive(): Promise<boolean> {
    if (!this.rpc) return false;
    try {
      const fresh = await fetchOverrides(this.rpc);
      const next = { ...this.overrides };
      for (const definition of SETTINGS_REGISTRY) {
        if (!definition.live) continue;
        if (fresh[definition.key] === undefined) delete next[definition.key];
        else next[definition.key] = fresh[definition.key];
      }
      this.overrides = next;
      return true;
    } catch (error) {
      this.logger?.warn({ err: error }, 'could not re-read instance settings');
      return false;
    }
  }

  private retryLive(): void {
    this.retryTimer = setTimeout(async () => {
      if (!(await this.refreshLive())) this.retryLive();
      else this.logger?.info('admin service answered: live instance settings loaded');
    }, 5_000);
    this.retryTimer.unref();
  }
}

async function fetchOverrides(rpc: RpcClient): Promise<Record<string, string>> {
  const reply = await rpc.send<SettingOverridesReply>(AdminPatterns.settingOverrides, {}, { requestId: 'instance-settings', timeoutMs: 1_000 });
  return reply.overrides;
}
