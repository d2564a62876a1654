import { describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import type { InstanceSettingChange } from '@social/contracts';
import type { SecretBox } from '@social/platform';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { InstanceSettingsService } from './instance-settings.service.js';

interface Row {
  key: string;
  value: string | null;
  sealed_value: string | null;
  updated_at: Date;
}

/** The service over a settings table whose rows the test replaces; a write (transaction) must not happen. */
function service() {
  const table: { rows: Row[] } = { rows: [] };
  const dataSource = {
    query: async () => table.rows,
    transaction: async () => {
      throw new Error('no write was expected');
    },
  } as unknown as DataSource;
  const settings = new InstanceSettingsService(dataSource, {} as SecretBox, {} as NatsConnection, {} as Logger);
  return { settings, table };
}

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);
const errorsOf = async (changes: InstanceSettingChange[]) =>
  ((await refusalOf(service().settings.save('admin', { settings: changes }))) as { options: { errors: unknown[] } }).options.errors;

describe('saving instance settings', () => {
  it('checks every change before writing any, and reports each', async () => {
    expect(
      await errorsOf([
        { key: 'no_such_setting', value: 'x' },
        { key: 'registration_enabled', value: 'yes' },
        { key: 'rate_limit_login_per_ip', value: '0' },
        { key: 'smtp_from', value: '' },
      ]),
    ).toEqual([
      { location: 'body.settings[0].key', message: 'is not a known setting', value: 'no_such_setting' },
      { location: 'body.settings[1].value', message: 'must be "true" or "false"', value: 'yes' },
      { location: 'body.settings[2].value', message: 'must be an integer from 1 to 100000, as a string', value: '0' },
      { location: 'body.settings[3].value', message: 'must not be empty for this setting', value: '' },
    ]);
  });

  it('refuses a key named twice', async () => {
    expect(
      await errorsOf([
        { key: 'registration_enabled', value: 'true' },
        { key: 'registration_enabled', unset: true },
      ]),
    ).toEqual([{ location: 'body.settings[1].key', message: 'is repeated', value: 'registration_enabled' }]);
  });

  it('needs exactly one of value and unset', async () => {
    expect(await errorsOf([{ key: 'ai_model' }])).toEqual([
      { location: 'body.settings[0]', message: 'must have exactly one of value or unset' },
    ]);
    expect(await errorsOf([{ key: 'registration_enabled', value: 'true', unset: true }])).toEqual([
      { location: 'body.settings[0]', message: 'must have exactly one of value or unset' },
    ]);
  });

  it('never echoes the value of a secret setting it refuses', async () => {
    expect(await errorsOf([{ key: 'smtp_url', value: '   ' }])).toEqual([
      { location: 'body.settings[0].value', message: 'must not be blank' },
    ]);
  });
});

describe('reading instance settings', () => {
  const at = new Date('2030-01-01T00:00:00.000Z');

  it('redacts secrets, saying only that one is configured', async () => {
    const { settings, table } = service();
    table.rows = [{ key: 'smtp_url', value: null, sealed_value: 'v1.sealed-envelope', updated_at: at }];
    const smtp = (await settings.get()).settings.find((s) => s.key === 'smtp_url')!;
    expect(smtp).toMatchObject({
      value: '',
      secret: true,
      configured: true,
      secret_configured: true,
      source: 'database',
      database_override_configured: true,
      updated_at: '2030-01-01T00:00:00.000Z',
    });
    expect(JSON.stringify(smtp)).not.toContain('sealed-envelope');
  });

  it('says a secret saved as "" is not configured', async () => {
    const { settings, table } = service();
    table.rows = [{ key: 'ai_api_key', value: '', sealed_value: null, updated_at: at }];
    expect((await settings.get()).settings.find((s) => s.key === 'ai_api_key')).toMatchObject({
      configured: false,
      secret_configured: false,
    });
  });

  it('asks for a restart after a change of a start-up setting, not of a live one', async () => {
    const { settings, table } = service();
    await settings.onModuleInit();
    expect((await settings.get()).requires_restart).toBe(false);
    table.rows = [{ key: 'registration_enabled', value: 'false', sealed_value: null, updated_at: at }];
    const live = await settings.get();
    expect(live.requires_restart).toBe(false);
    expect(live.settings.find((s) => s.key === 'registration_enabled')).toMatchObject({ value: 'false', requires_restart: false });
    table.rows.push({ key: 'rate_limit_login_per_ip', value: '50', sealed_value: null, updated_at: at });
    const changed = await settings.get();
    expect(changed.requires_restart).toBe(true);
    expect(changed.settings.filter((s) => s.requires_restart).map((s) => s.key)).toEqual(['rate_limit_login_per_ip']);
  });

  it('counts saving a secret again as a change (its envelope differs)', async () => {
    const { settings, table } = service();
    table.rows = [{ key: 'smtp_url', value: null, sealed_value: 'envelope-1', updated_at: at }];
    await settings.onModuleInit();
    table.rows = [{ key: 'smtp_url', value: null, sealed_value: 'envelope-2', updated_at: at }];
    expect((await settings.get()).settings.find((s) => s.key === 'smtp_url')!.requires_restart).toBe(true);
  });
});
