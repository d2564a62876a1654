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
import { NATS_CONNECTION, problems, resolveSetting, SecretBox } from '@social/platform';
import { DataSource } from 'typeorm';

interface SettingRow {
  key: string;
  value: string | null;
  sealed_value: string | null;
  updated_at: Date;
}

const sealContext = (key: string) => `instance_settings:${key}`;

/**
 * E5/E6 over the registry in code. `requires_restart` compares the saved
 * overrides with the ones this service read when it started, taken as the
 * values the running services started with (services start together; a
 * restart of the whole platform clears it). Live settings never need a restart.
 */
@Injectable()
export class InstanceSettingsService implements OnModuleInit {
  private startupOverrides: Record<string, string> = {};

  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
  ) {}

  async onModuleInit() {
    this.startupOverrides = await this.overrides();
  }

  /** Saved overrides, secrets opened: for E6 and, over internal NATS only, for the services' start-up. */
  async overrides(): Promise<Record<string, string>> {
    const rows = await this.rows();
    return Object.fromEntries(rows.filter((row) => settingDefinition(row.key)).map((row) => [row.key, this.open(row)]));
  }

  async get(): Promise<InstanceSettingsResponse> {
    const rows = new Map((await this.rows()).map((row) => [row.key, row]));
    const overrides = Object.fromEntries([...rows.values()].filter((r) => settingDefinition(r.key)).map((r) => [r.key, this.open(r)]));
    const settings = SETTINGS_REGISTRY.map((definition) => this.toInstanceSetting(definition, overrides, rows.get(definition.key)));
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

    await this.dataSource.transaction(async (db) => {
      for (const change of input.settings) {
        if (change.unset) {
          await db.query(`DELETE FROM instance_settings WHERE key = $1`, [change.key]);
          continue;
        }
        const secret = settingDefinition(change.key)!.type === 'secret';
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

  private rows(): Promise<SettingRow[]> {
    return this.dataSource.query<SettingRow[]>(`SELECT key, value, sealed_value, updated_at FROM instance_settings`);
  }

  private open(row: SettingRow): string {
    return row.sealed_value !== null ? this.secrets.open(row.sealed_value, sealContext(row.key)) : row.value!;
  }

  private toInstanceSetting(definition: SettingDefinition, overrides: Record<string, string>, row: SettingRow | undefined): InstanceSetting {
    const resolved = resolveSetting(definition, overrides, process.env);
    const secret = definition.type === 'secret';
    return {
      key: definition.key,
      group: definition.group,
      label: definition.label,
      description: definition.description,
      type: definition.type,
      options: (definition.options ?? []).map((o) => ({ label: o.label, value: o.value })),
      optional: definition.optional,
      environment_variables: [...definition.environment_variables],
      value: secret ? '' : resolved.value,
      source: resolved.source,
      configured: resolved.value !== '',
      secret,
      secret_configured: secret && resolved.value !== '',
      database_override_configured: row !== undefined,
      editable: true,
      managed_by: definition.applied_by,
      requires_restart: !definition.live && overrides[definition.key] !== this.startupOverrides[definition.key],
      updated_at: row ? new Date(row.updated_at).toISOString() : '',
    };
  }
}
