import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  AdminPatterns,
  SETTINGS_CHANGED_SUBJECT,
  SETTING_SOURCES,
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
import type { CallerTokenSigner } from '../access/caller-token.js';

export type SettingSource = (typeof SETTING_SOURCES)[number];

export interface ResolvedSetting {
  value: string;
  source: SettingSource;
}

/**
 * Effective value of one setting: the database override, else the first
 * environment variable that holds a valid value, else the default. An
 * invalid environment value is skipped (and reported by `invalidEnvironment`).
 */
export function resolveSetting(definition: SettingDefinition, overrides: Record<string, string>, env: NodeJS.ProcessEnv): ResolvedSetting {
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
  /** Retry of a failed live refresh: first delay, doubling up to the maximum. */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** Signs the caller token of the requests to the admin service. */
  signer?: CallerTokenSigner;
}

type FetchOverrides = () => Promise<Record<string, string>>;

/**
 * The one way a service reads instance settings (docs/decisions.md). At start-up it
 * asks the admin service for the saved overrides; services start together, so
 * it retries for a short while and then falls back to environment and
 * defaults (logged), never blocking start-up. Values stay as they were at
 * start-up, except settings marked `live`: those are re-read whenever the
 * admin service announces a change. Re-reads run one at a time (a change
 * announced meanwhile runs one more, so an older answer never lands last), and
 * a failed one is retried with backoff until it succeeds.
 */
export class InstanceSettings {
  private subscription?: Subscription;
  private retryTimer?: NodeJS.Timeout;
  private retryDelayMs: number;
  private refreshing?: Promise<boolean>;
  private changedMeanwhile = false;
  private closed = false;
  private failing = false;

  private constructor(
    private overrides: Record<string, string>,
    private readonly env: NodeJS.ProcessEnv,
    private readonly fetch: FetchOverrides | undefined,
    private readonly logger: Logger | undefined,
    private readonly retry: { minMs: number; maxMs: number } = { minMs: 1_000, maxMs: 30_000 },
  ) {
    this.retryDelayMs = retry.minMs;
  }

  /** Settings from overrides already known (the admin service itself, tests). */
  static fromOverrides(overrides: Record<string, string>, env: NodeJS.ProcessEnv = process.env): InstanceSettings {
    return new InstanceSettings({ ...overrides }, env, undefined, undefined);
  }

  /** Settings whose live values are re-read through `fetch` (tests stub the admin service with it). */
  static withFetch(
    overrides: Record<string, string>,
    fetch: FetchOverrides,
    options: Pick<LoadInstanceSettingsOptions, 'env' | 'retryMinMs' | 'retryMaxMs'> & { logger?: Logger } = {},
  ): InstanceSettings {
    return new InstanceSettings({ ...overrides }, options.env ?? process.env, fetch, options.logger, {
      minMs: options.retryMinMs ?? 1_000,
      maxMs: options.retryMaxMs ?? 30_000,
    });
  }

  static async load(nats: NatsConnection, logger: Logger, options: LoadInstanceSettingsOptions = {}): Promise<InstanceSettings> {
    const rpc = new RpcClient(nats, 1_000, undefined, options.signer);
    const fetch = () => fetchOverrides(rpc);
    const env = options.env ?? process.env;
    const invalid = invalidEnvironment(env);
    if (invalid.length > 0) logger.warn({ invalid }, 'ignoring invalid instance-setting environment values');
    const deadline = Date.now() + (options.waitMs ?? 15_000);
    let overrides: Record<string, string> | undefined;
    while (!overrides) {
      overrides = await fetch().catch(() => undefined);
      if (overrides || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(500, deadline - Date.now()))));
    }
    const settings = InstanceSettings.withFetch(overrides ?? {}, fetch, { ...options, env, logger });
    if (!overrides) {
      logger.warn('admin service did not answer: instance settings from the environment and defaults until it does (live ones only)');
      settings.failing = true;
      settings.scheduleRetry();
    }
    settings.subscription = nats.subscribe(SETTINGS_CHANGED_SUBJECT, {
      callback: (error, msg) => {
        if (error) return;
        // Anyone on the bus may publish here: a malformed message is logged, never thrown into the reader loop.
        try {
          const event = msg.json<SettingsChangedEvent>();
          if (!Array.isArray(event?.keys)) throw new Error('keys is not an array');
          if (event.keys.some((key) => typeof key === 'string' && settingDefinition(key)?.live)) void settings.refreshLive();
        } catch (problem) {
          logger.warn({ err: problem, subject: msg.subject }, 'ignoring a malformed settings-changed event');
        }
      },
    });
    return settings;
  }

  close(): void {
    this.closed = true;
    this.subscription?.unsubscribe();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
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

  /**
   * Re-reads the overrides and takes the new values of `live` settings only.
   * Single-flight: called while a re-read runs, it asks that one to run once
   * more when it ends (the answer then reflects the latest change) and shares
   * its result. A failure schedules a retry with backoff.
   */
  refreshLive(): Promise<boolean> {
    if (!this.fetch || this.closed) return Promise.resolve(false);
    if (this.refreshing) {
      this.changedMeanwhile = true;
      return this.refreshing;
    }
    const run = async () => {
      let ok: boolean;
      do {
        this.changedMeanwhile = false;
        ok = await this.fetchLive();
      } while (this.changedMeanwhile && !this.closed);
      return ok;
    };
    this.refreshing = run().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async fetchLive(): Promise<boolean> {
    try {
      const fresh = await this.fetch!();
      const next = { ...this.overrides };
      for (const definition of SETTINGS_REGISTRY) {
        if (!definition.live) continue;
        if (fresh[definition.key] === undefined) delete next[definition.key];
        else next[definition.key] = fresh[definition.key];
      }
      this.overrides = next;
      if (this.failing) this.logger?.info('admin service answered: live instance settings loaded');
      this.failing = false;
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.retryDelayMs = this.retry.minMs;
      return true;
    } catch (error) {
      if (!this.failing) this.logger?.warn({ err: error }, 'could not re-read instance settings; retrying with backoff');
      this.failing = true;
      this.scheduleRetry();
      return false;
    }
  }

  /** One pending retry at a time, its delay doubling up to the maximum. */
  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    const delay = this.retryDelayMs;
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, this.retry.maxMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.refreshLive();
    }, delay);
    this.retryTimer.unref();
  }
}

async function fetchOverrides(rpc: RpcClient): Promise<Record<string, string>> {
  const reply = await rpc.send<SettingOverridesReply>(
    AdminPatterns.settingOverrides,
    {},
    { requestId: 'instance-settings', timeoutMs: 1_000 },
  );
  return reply.overrides;
}
