import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  FieldError,
  InstanceSetting,
  InstanceSettingsResponse,
  SaveInstanceSettingsRequest,
  SETTINGS_CHANGED_SUBJECT,
  SETTINGS_REGISTRY,
  SettingDefinition,
  settingDefinition,
  SettingsChangedEvent,
  settingValueError,
} from '@social/contracts';
import { NATS_CONNECTION, problems, resolveSetting, SecretBox, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { InstanceSettingRow } from './instance-setting.row.js';

const sealContext = (key: string) => `instance_settings:${key}`;

/**
 * E5/E6 over the registry in code. `requires_restart` compares each setting's
 * effective value (override > environment > default) with the one at this
 * service's start-up, taken as what the running services started with
 * (services start together; a restart of the whole platform clears it). Live
 * settings never need a restart. E5/E6 never open a secret: an unreadable
 * envelope (another SECRETS_KEY, a damaged row) must not take them down.
 */
@Injectable()
export class InstanceSettingsService implements OnModuleInit {
  private startupValues = new Map<string, string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit() {
    this.startupValues = this.runningValues(await this.rows());
  }

  /**
   * Saved overrides, secrets opened: over internal NATS only, for the services'
   * start-up. A row that cannot be opened is left out (logged by key, never
   * its value), so the others still apply.
   */
  async overrides(): Promise<Record<string, string>> {
    const overrides: Record<string, string> = {};
    for (const row of await this.rows()) {
      if (!settingDefinition(row.key)) continue;
      try {
        overrides[row.key] = this.open(row);
      } catch {
        this.logger.error({ key: row.key }, 'cannot open a stored instance setting (SECRETS_KEY changed or row damaged); skipping it');
      }
    }
    return overrides;
  }

  async get(): Promise<InstanceSettingsResponse> {
    const rows = await this.rows();
    const byKey = new Map(rows.map((row) => [row.key, row]));
    const running = this.runningValues(rows);
    const settings = SETTINGS_REGISTRY.map((definition) =>
      this.toInstanceSetting(definition, byKey.get(definition.key), running.get(definition.key) !== this.startupValues.get(definition.key)),
    );
    return { requires_restart: settings.some((s) => s.requires_restart), settings };
  }

  /** E5: every change is checked first; then all are written in one transaction, or none. */
  async save(userId: string, input: SaveInstanceSettingsRequest): Promise<InstanceSettingsResponse> {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    input.settings.forEach((change, i) => {
      const location = `body.settings[${i}]`;
      const definition = settingDefinition(change.key);
      if (!definition) return errors.push({ location: `${location}.key`, message: 'is not a known setting', value: change.key });
      if (seen.has(change.key)) return errors.push({ location: `${location}.key`, message: 'is repeated', value: change.key });
      seen.add(change.key);
      if ((change.value === undefined) === (change.unset === undefined)) {
        return errors.push({ location, message: 'must have exactly one of value or unset' });
      }
      const invalid = change.value === undefined ? undefined : settingValueError(definition, change.value);
      if (invalid) {
        errors.push({ location: `${location}.value`, message: invalid, ...(definition.type === 'secret' ? {} : { value: change.value }) });
      }
    });
    if (errors.length > 0) throw problems.validation(errors, errors.map((e) => `${e.location} ${e.message}`).join('; ') + '.');

    // Rows in key order: two saves naming the same keys in other orders cannot deadlock.
    const changes = [...input.settings].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    await this.dataSource.transaction(async (db) => {
      for (const change of changes) {
        if (change.unset) {
          await db.query(`DELETE FROM instance_settings WHERE key = $1`, [change.key]);
          continue;
        }
        // A secret saved as "" (none) is stored in clear: nothing to hide, and E6 can tell it is not configured.
        const secret = settingDefinition(change.key)!.type === 'secret' && change.value !== '';
        await db.query(
          `INSERT INTO instance_settings (key, value, sealed_value, updated_at, updated_by) VALUES ($1, $2, $3, now(), $4)
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, sealed_value = EXCLUDED.sealed_value,
             updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
          [change.key, secret ? null : change.value, secret ? this.secrets.seal(change.value!, sealContext(change.key)) : null, userId],
        );
      }
    });
    const event: SettingsChangedEvent = { keys: input.settings.map((change) => change.key) };
    this.nats.publish(SETTINGS_CHANGED_SUBJECT, JSON.stringify(event));
    return this.get();
  }

  private rows(): Promise<InstanceSettingRow[]> {
    return this.dataSource.query<InstanceSettingRow[]>(`SELECT key, value, sealed_value, updated_at FROM instance_settings`);
  }

  private open(row: InstanceSettingRow): string {
    return row.sealed_value !== null ? this.secrets.open(row.sealed_value, sealContext(row.key)) : row.value!;
  }

  /**
   * What each setting resolves to, without opening secrets: a sealed override
   * stands for itself (its envelope), so saving the same secret again counts
   * as a change.
   */
  private runningValues(rows: InstanceSettingRow[]): Map<string, string> {
    const overrides = Object.fromEntries(
      rows.map((row) => [row.key, row.sealed_value !== null ? `sealed:${row.sealed_value}` : `value:${row.value}`]),
    );
    return new Map(
      SETTINGS_REGISTRY.map((definition) => {
        const override = overrides[definition.key];
        return [definition.key, override ?? `value:${resolveSetting(definition, {}, process.env).value}`];
      }),
    );
  }

  private toInstanceSetting(definition: SettingDefinition, row: InstanceSettingRow | undefined, changed: boolean): InstanceSetting {
    const secret = definition.type === 'secret';
    const resolved = row
      ? { value: row.sealed_value !== null ? undefined : row.value!, source: 'database' as const }
      : resolveSetting(definition, {}, process.env);
    // A sealed value is never "" (E5 stores "" in clear).
    const configured = resolved.value === undefined || resolved.value !== '';
    return {
      key: definition.key,
      group: definition.group,
      label: definition.label,
      description: definition.description,
      type: definition.type,
      options: (definition.options ?? []).map((o) => ({ label: o.label, value: o.value })),
      optional: definition.optional,
      environment_variables: [...definition.environment_variables],
      value: secret ? '' : (resolved.value ?? ''),
      source: resolved.source,
      configured,
      secret,
      secret_configured: secret && configured,
      database_override_configured: row !== undefined,
      editable: true,
      managed_by: definition.applied_by,
      requires_restart: !definition.live && changed,
      updated_at: row ? new Date(row.updated_at).toISOString() : '',
    };
  }
}
