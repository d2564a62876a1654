import { describe, expect, it } from '@jest/globals';
import { SETTINGS_REGISTRY, settingDefinition, settingValueError } from '@social/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import pino from 'pino';
import { InstanceSettings, invalidEnvironment, resolveSetting } from './instance-settings.js';

describe('instance settings registry', () => {
  it('has unique keys whose defaults are valid values of their own type', () => {
    expect(new Set(SETTINGS_REGISTRY.map((s) => s.key)).size).toBe(SETTINGS_REGISTRY.length);
    for (const definition of SETTINGS_REGISTRY)
      expect({ key: definition.key, error: settingValueError(definition, definition.default) }).toEqual({
        key: definition.key,
        error: undefined,
      });
  });

  it('checks values by type (strings in every type; "" only for optional settings)', () => {
    const check = (key: string, value: string) => settingValueError(settingDefinition(key)!, value);
    expect(check('registration_enabled', 'true')).toBeUndefined();
    expect(check('registration_enabled', 'yes')).toBeDefined();
    expect(check('registration_enabled', '')).toBeDefined();
    expect(check('rate_limit_login_per_ip', '25')).toBeUndefined();
    expect(check('rate_limit_login_per_ip', '2.5')).toBeDefined();
    expect(check('rate_limit_login_per_ip', '0')).toBeDefined();
    expect(check('ai_base_url', 'https://api.example.com/v1')).toBeUndefined();
    expect(check('ai_base_url', 'ftp://x')).toBeDefined();
    expect(check('ai_base_url', '')).toBeUndefined();
    expect(check('smtp_from', 'noreply@example.com')).toBeUndefined();
    expect(check('smtp_from', 'noreply')).toBeDefined();
    expect(check('smtp_from', 'Social Platform <no-reply@localhost>')).toBeUndefined();
    expect(check('smtp_from', 'Social Platform <no-reply>')).toBeDefined();
    expect(check('smtp_from', '')).toBeDefined();
    expect(check('media_storage_driver', 's3')).toBeUndefined();
    expect(check('media_storage_driver', 'disk')).toBeDefined();
    expect(check('media_allowed_mime_types', 'image/png, image/gif')).toBeUndefined();
    expect(check('media_allowed_mime_types', 'image/png,,')).toBeDefined();
    expect(check('ai_api_key', '   ')).toBeDefined();
  });

  it('resolves database over environment over default, skipping invalid environment values', () => {
    const definition = settingDefinition('rate_limit_login_per_ip')!;
    expect(resolveSetting(definition, {}, {})).toEqual({ value: '20', source: 'default' });
    expect(resolveSetting(definition, {}, { RATE_LIMIT_LOGIN_PER_IP: '30' })).toEqual({ value: '30', source: 'environment' });
    expect(resolveSetting(definition, { rate_limit_login_per_ip: '40' }, { RATE_LIMIT_LOGIN_PER_IP: '30' })).toEqual({
      value: '40',
      source: 'database',
    });
    expect(resolveSetting(definition, {}, { RATE_LIMIT_LOGIN_PER_IP: 'lots' })).toEqual({ value: '20', source: 'default' });
    expect(invalidEnvironment({ RATE_LIMIT_LOGIN_PER_IP: 'lots', AI_MODEL: 'gpt' })).toEqual([
      expect.stringMatching(/^RATE_LIMIT_LOGIN_PER_IP /),
    ]);
  });

  it('reads typed values', () => {
    const settings = InstanceSettings.fromOverrides(
      { registration_enabled: 'false', media_allowed_mime_types: 'image/png, image/gif' },
      { RATE_LIMIT_LOGIN_PER_IP: '7' },
    );
    expect(settings.boolean('registration_enabled')).toBe(false);
    expect(settings.boolean('sandbox_provider_enabled')).toBe(true);
    expect(settings.integer('rate_limit_login_per_ip')).toBe(7);
    expect(settings.list('media_allowed_mime_types')).toEqual(['image/png', 'image/gif']);
    expect(settings.list('s3_bucket')).toEqual([]);
    expect(settings.string('ai_model')).toBe('');
  });
});

describe('InstanceSettings live refresh', () => {
  const quiet = pino({ level: 'silent' });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('runs one re-read at a time and re-runs it for a change announced meanwhile: the newest answer lands last', async () => {
    let release!: () => void;
    const calls: string[] = [];
    const fetch = async () => {
      calls.push('fetch');
      if (calls.length === 1) {
        // The first answer is slow and older than the change that follows.
        await new Promise<void>((resolve) => (release = resolve));
        return { registration_enabled: 'false' };
      }
      return { registration_enabled: 'true' };
    };
    const settings = InstanceSettings.withFetch({}, fetch, { env: {} });
    const first = settings.refreshLive();
    const second = settings.refreshLive();
    const third = settings.refreshLive();
    await sleep(10);
    expect(calls).toHaveLength(1);
    release();
    expect(await Promise.all([first, second, third])).toEqual([true, true, true]);
    expect(calls).toHaveLength(2);
    expect(settings.boolean('registration_enabled')).toBe(true);
    settings.close();
  });

  it('retries a failed re-read with a bounded backoff until it succeeds', async () => {
    const at: number[] = [];
    const fetch = async () => {
      at.push(Date.now());
      if (at.length < 5) throw new Error('admin is away');
      return { registration_enabled: 'false' };
    };
    const settings = InstanceSettings.withFetch({}, fetch, { env: {}, retryMinMs: 20, retryMaxMs: 50, logger: quiet });
    expect(await settings.refreshLive()).toBe(false);
    const deadline = Date.now() + 2_000;
    while (!(at.length >= 5 && settings.string('registration_enabled') === 'false') && Date.now() < deadline) await sleep(10);
    expect(settings.boolean('registration_enabled')).toBe(false);
    expect(at).toHaveLength(5);
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    // 20, 40, 50, 50 ms (timers may fire a little late, never early).
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[2]).toBeGreaterThanOrEqual(45);
    expect(Math.max(...gaps)).toBeLessThan(500);
    await sleep(150);
    expect(at).toHaveLength(5);
    settings.close();
  });

  it(
    'load with no admin answering returns within its bound, ' + 'from environment and defaults, and ignores malformed change events',
    async () => {
      let callback: ((error: Error | null, msg: unknown) => void) | undefined;
      let replies: typeof callback;
      let requests = 0;
      // A server where nobody serves the settings: each request is answered on its reply inbox with an empty 503.
      const nats = {
        publish: (_subject: string, _data: unknown, options: { reply: string }) => {
          requests++;
          setImmediate(() => replies!(null, { subject: options.reply, data: new Uint8Array(0), headers: { code: 503 } }));
        },
        subscribe: (subject: string, options: { callback: typeof callback }) => {
          if (subject.startsWith('_INBOX.')) replies = options.callback;
          else callback = options.callback;
          return { unsubscribe: () => undefined, closed: new Promise(() => undefined), isClosed: () => false };
        },
      } as unknown as NatsConnection;
      const started = Date.now();
      const settings = await InstanceSettings.load(nats, quiet, { waitMs: 300, env: { RATE_LIMIT_LOGIN_PER_IP: '9' }, retryMinMs: 60_000 });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(requests).toBeGreaterThan(0);
      expect(settings.resolved('rate_limit_login_per_ip')).toEqual({ value: '9', source: 'environment' });
      expect(settings.resolved('registration_enabled')).toEqual({ value: 'true', source: 'default' });

      // Garbage on the subject never throws into the reader loop.
      const garbage = [
        { subject: 's', json: () => JSON.parse('not json') },
        { subject: 's', json: () => null },
        { subject: 's', json: () => ({ keys: 'registration_enabled' }) },
        { subject: 's', json: () => ({ keys: [42, null, { a: 1 }] }) },
      ];
      for (const msg of garbage) expect(() => callback!(null, msg)).not.toThrow();
      const before = requests;
      callback!(null, { subject: 's', json: () => ({ keys: ['registration_enabled'] }) });
      await sleep(20);
      expect(requests).toBe(before + 1);
      settings.close();
    },
  );
});
