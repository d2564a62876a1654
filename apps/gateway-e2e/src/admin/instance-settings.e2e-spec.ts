import { beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { SETTINGS_CHANGED_SUBJECT } from '@social/contracts';
import { ENVIRONMENT_AI_MODEL } from '@social/testing';
import { call, eventually, expectProblem, PASSWORD, registerUser, TestUser, uniqueEmail } from '../support/api.js';
import { adminCall, expectNoSecretsInAnswers, locations, registerAdmin, withDatabase, workspaceToken } from '../support/admin.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';

const AI_KEY = `sk-e2e-${randomUUID()}`;
const SMTP_PASSWORD = `pw-${randomUUID()}`;
const SMTP_URL = `smtp://mailer:${SMTP_PASSWORD}@smtp.example.com:587`;

interface Setting {
  key: string;
  value: string;
  source: string;
  secret: boolean;
  secret_configured: boolean;
  database_override_configured: boolean;
  requires_restart: boolean;
  [member: string]: unknown;
}

describe('admin: instance settings (E5, E6)', () => {
  let admin: TestUser;
  const get = (token = admin.token) => adminCall('GET', '/admin/instance-settings', { token });
  const put = (settings: unknown, token = admin.token) => adminCall('PUT', '/admin/instance-settings', { token, body: { settings } });
  const item = (body: { settings: Setting[] }, key: string) => body.settings.find((s) => s.key === key)!;

  beforeAll(async () => {
    admin = await registerAdmin();
  });

  it('E6 lists the typed registry with effective values and their source', async () => {
    const response = await get();
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'InstanceSettingsResponse');
    const keys = response.body.settings.map((s: Setting) => s.key);
    for (const key of [
      'registration_enabled',
      'public_base_url',
      'public_app_url',
      'smtp_url',
      'smtp_from',
      'ai_base_url',
      'ai_api_key',
      'ai_model',
      'media_storage_driver',
      's3_endpoint',
      's3_bucket',
      's3_secret_access_key',
      'media_upload_limit_bytes',
      'sandbox_provider_enabled',
      'rate_limit_login_per_email',
    ]) {
      expect(keys).toContain(key);
    }
    expect(item(response.body, 'registration_enabled')).toEqual({
      key: 'registration_enabled',
      group: 'registration',
      label: expect.any(String),
      description: expect.any(String),
      type: 'boolean',
      options: [],
      optional: false,
      environment_variables: ['REGISTRATION_ENABLED'],
      value: 'true',
      source: 'default',
      configured: true,
      secret: false,
      secret_configured: false,
      database_override_configured: false,
      editable: true,
      managed_by: 'accounts',
      requires_restart: false,
      updated_at: '',
    });
    expect(item(response.body, 'ai_model')).toMatchObject({
      value: ENVIRONMENT_AI_MODEL,
      source: 'environment',
      environment_variables: ['AI_MODEL'],
    });
    expect(item(response.body, 'media_storage_driver')).toMatchObject({
      type: 'enum',
      value: 'nats',
      options: [
        { label: expect.any(String), value: 'nats' },
        { label: expect.any(String), value: 's3' },
      ],
    });
    // The e2e stack points AI_API_KEY at its fake provider: configured, never shown.
    expect(item(response.body, 'ai_api_key')).toMatchObject({
      type: 'secret',
      secret: true,
      value: '',
      secret_configured: true,
      configured: true,
      source: 'environment',
    });
  });

  it(
    'E5 saves atomically: database overrides win over environment and default, ' +
      'secrets are sealed and redacted, requires_restart until a restart (live settings never)',
    async () => {
      const saved = await put([
        { key: 'ai_model', value: 'gpt-e2e' },
        { key: 'ai_api_key', value: AI_KEY },
        { key: 'smtp_url', value: SMTP_URL },
        { key: 'rate_limit_login_per_email', value: '15' },
        { key: 'media_allowed_mime_types', value: 'image/png,image/jpeg' },
      ]);
      expect(saved.status).toBe(200);
      await expectMatchesOwnSchema(saved.body, 'InstanceSettingsResponse');
      expect(saved.body.requires_restart).toBe(true);
      // The AI settings are live: publishing applies them at once.
      expect(item(saved.body, 'ai_model')).toMatchObject({
        value: 'gpt-e2e',
        source: 'database',
        database_override_configured: true,
        requires_restart: false,
        updated_at: expect.stringMatching(/Z$/),
      });
      expect(item(saved.body, 'ai_api_key')).toMatchObject({
        value: '',
        secret_configured: true,
        configured: true,
        source: 'database',
        requires_restart: false,
      });
      expect(item(saved.body, 'smtp_url')).toMatchObject({
        value: '',
        secret_configured: true,
        source: 'database',
        requires_restart: true,
      });
      expect(item(saved.body, 'rate_limit_login_per_email')).toMatchObject({ value: '15', requires_restart: true });
      expect(item(saved.body, 'media_allowed_mime_types')).toMatchObject({ type: 'list', value: 'image/png,image/jpeg' });
      expect(item(saved.body, 'registration_enabled').requires_restart).toBe(false);
      expect((await get()).body).toEqual(saved.body);

      const rows = await withDatabase(
        async (db) => (await db.query(`SELECT * FROM admin.instance_settings WHERE key IN ('ai_api_key', 'smtp_url')`)).rows,
      );
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.value).toBeNull();
        expect(row.sealed_value).toMatch(/^v2\./);
        expect(JSON.stringify(row)).not.toContain(AI_KEY);
        // The password itself: a short fragment like 'pw-' can occur in random base64url ciphertext.
        expect(JSON.stringify(row)).not.toContain(SMTP_PASSWORD);
      }

      const unset = await put([
        { key: 'ai_model', unset: true },
        { key: 'ai_api_key', unset: true },
        { key: 'smtp_url', unset: true },
        { key: 'rate_limit_login_per_email', unset: true },
        { key: 'media_allowed_mime_types', unset: true },
      ]);
      expect(unset.status).toBe(200);
      expect(item(unset.body, 'ai_model')).toMatchObject({
        value: ENVIRONMENT_AI_MODEL,
        source: 'environment',
        database_override_configured: false,
        updated_at: '',
      });
      expect(item(unset.body, 'ai_api_key')).toMatchObject({ secret_configured: true, source: 'environment' });
      // Saved values equal the running ones again.
      expect(unset.body.requires_restart).toBe(false);
    },
  );

  it('refuses unknown keys, repeated keys, wrong types and malformed items with 422, saving nothing', async () => {
    const before = (await get()).body;
    const problem = expectProblem(
      await put([
        { key: 'ai_model', value: 'would-be-saved' },
        { key: 'no_such_setting', value: 'x' },
        { key: 'rate_limit_login_per_ip', value: 'ten' },
        { key: 'registration_enabled', value: 'yes' },
        { key: 'ai_base_url', value: 'not a url' },
        { key: 'smtp_from', value: 'nobody' },
        { key: 'media_storage_driver', value: 'floppy' },
        { key: 'ai_model', value: 'again' },
        { key: 'sandbox_provider_enabled', value: 'true', unset: true },
        { key: 's3_bucket' },
        { key: 'rate_limit_register_per_email', value: '' },
      ]),
      422,
      'validation_failed',
    );
    expect(locations(problem)).toEqual([
      'body.settings[1].key',
      'body.settings[2].value',
      'body.settings[3].value',
      'body.settings[4].value',
      'body.settings[5].value',
      'body.settings[6].value',
      'body.settings[7].key',
      'body.settings[8]',
      'body.settings[9]',
      'body.settings[10].value',
    ]);
    expect((await get()).body).toEqual(before);

    const types = expectProblem(
      await put([{ key: 'ai_model', value: 42 }, { key: 7, unset: false }, 'text', { key: 'ai_model', value: 'x', extra: 1 }]),
      422,
    );
    expect(locations(types)).toEqual(
      expect.arrayContaining([
        'body.settings[0].value',
        'body.settings[1].key',
        'body.settings[1].unset',
        'body.settings[2]',
        'body.settings[3].extra',
      ]),
    );
    expect(locations(expectProblem(await put([]), 422))).toEqual(['body.settings']);
    expect(new Set(locations(expectProblem(await put('all'), 422)))).toEqual(new Set(['body.settings']));
    expect(locations(expectProblem(await adminCall('PUT', '/admin/instance-settings', { token: admin.token, body: {} }), 422))).toEqual([
      'body.settings',
    ]);
    expect(locations(expectProblem(await put([{ key: 'ai_model', value: 'x'.repeat(4097) }]), 422))).toEqual(['body.settings[0].value']);
    expect((await get()).body).toEqual(before);
  });

  it('malformed settings-changed events on NATS break nothing: services answer and still apply live settings', async () => {
    const nats = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
    try {
      for (const payload of ['not json', 'null', '42', '{"keys":"registration_enabled"}', '{"keys":[1,null,{}]}', '{}', '\u0000']) {
        nats.publish(SETTINGS_CHANGED_SUBJECT, payload);
      }
      await nats.flush();
    } finally {
      await nats.drain();
    }
    expect((await call('POST', '/auth/register', { body: { email: uniqueEmail(), password: PASSWORD } })).status).toBe(201);
    expect((await get()).status).toBe(200);
    try {
      await put([{ key: 'registration_enabled', value: 'false' }]);
      await eventually(async () => {
        expectProblem(
          await call('POST', '/auth/register', { body: { email: uniqueEmail(), password: PASSWORD } }),
          403,
          'registration_disabled',
        );
      });
    } finally {
      await put([{ key: 'registration_enabled', unset: true }]);
    }
    await eventually(async () => {
      expect((await call('POST', '/auth/register', { body: { email: uniqueEmail(), password: PASSWORD } })).status).toBe(201);
    });
  });

  it('registration_enabled is live: off, registration is 403 registration_disabled within moments; on again, it works', async () => {
    try {
      const off = await put([{ key: 'registration_enabled', value: 'false' }]);
      expect(off.status).toBe(200);
      expect(item(off.body, 'registration_enabled')).toMatchObject({ value: 'false', source: 'database', requires_restart: false });
      await eventually(async () => {
        const refused = await call('POST', '/auth/register', { body: { email: uniqueEmail(), password: PASSWORD } });
        expectProblem(refused, 403, 'registration_disabled');
      });
      // Existing accounts still sign in.
      expect((await call('POST', '/auth/login', { body: { email: admin.email, password: admin.password } })).status).toBe(200);
    } finally {
      await put([{ key: 'registration_enabled', unset: true }]);
    }
    await eventually(async () => {
      expect((await call('POST', '/auth/register', { body: { email: uniqueEmail(), password: PASSWORD } })).status).toBe(201);
    });
  });

  it('requires_restart compares running values: an override equal to the environment value needs no restart', async () => {
    // PUBLIC_APP_URL of the e2e stack is its base URL; accounts reads it at start-up only.
    const environmentAppUrl = process.env.E2E_BASE_URL!;
    try {
      const same = await put([{ key: 'public_app_url', value: environmentAppUrl }]);
      expect(same.status).toBe(200);
      expect(item(same.body, 'public_app_url')).toMatchObject({ value: environmentAppUrl, source: 'database', requires_restart: false });
      const other = await put([{ key: 'public_app_url', value: 'https://app.example.com' }]);
      expect(item(other.body, 'public_app_url').requires_restart).toBe(true);
      // A live setting never waits for a restart, whatever its value.
      const live = await put([{ key: 'ai_model', value: `${ENVIRONMENT_AI_MODEL}-other` }]);
      expect(item(live.body, 'ai_model')).toMatchObject({ source: 'database', requires_restart: false });
      // An override equal to the default, with no environment value, neither.
      const driver = await put([{ key: 'media_storage_driver', value: 'nats' }]);
      expect(item(driver.body, 'media_storage_driver')).toMatchObject({ source: 'database', requires_restart: false });
    } finally {
      await put([
        { key: 'public_app_url', unset: true },
        { key: 'ai_model', unset: true },
        { key: 'media_storage_driver', unset: true },
      ]);
    }
  });

  it('10 concurrent saves naming the same keys in different orders all succeed (no deadlock)', async () => {
    const keys: Array<[string, string]> = [
      ['s3_bucket', 'bucket-'],
      ['s3_region', 'region-'],
      ['ai_base_url', 'https://ai.example.com/v'],
      ['media_upload_limit_bytes', '1048'],
      ['media_allowed_mime_types', 'image/png,image/x'],
      ['sandbox_provider_enabled', ''],
    ];
    const shuffled = (round: number) => {
      const copy = [...keys];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy.map(([key, prefix]) => ({
        key,
        value: key === 'sandbox_provider_enabled' ? String(round % 2 === 0) : `${prefix}${round}`,
      }));
    };
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, round) => put(shuffled(round))));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    } finally {
      await put(keys.map(([key]) => ({ key, unset: true })));
    }
  });

  it('answers 403 to a user who is not an instance admin, and to a workspace-bound token', async () => {
    const user = await registerUser();
    expectProblem(await get(user.token), 403, 'admin_required');
    expectProblem(await put([{ key: 'ai_model', value: 'x' }], user.token), 403, 'admin_required');
    const token = await workspaceToken(admin);
    expectProblem(await get(token), 403, 'workspace_token_forbidden');
    expectProblem(await put([{ key: 'ai_model', value: 'x' }], token), 403, 'workspace_token_forbidden');
  });

  it('never answers a secret it was sent', () => {
    expectNoSecretsInAnswers([AI_KEY, SMTP_URL, SMTP_URL.split(':')[2].split('@')[0]]);
  });
});
