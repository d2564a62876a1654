import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, NatsConnection } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import {
  AdminDirectoryOperations,
  AdminPatterns,
  AiPromptOperations,
  InstanceSettingsOperations,
  Principal,
  ProviderAppOperations,
} from '@social/contracts';
import { ENVIRONMENT_PROVIDER_APPS } from '@social/testing';
import { adminCall, expectNoSecretsInAnswers, registerAdmin, withDatabase } from '../support/admin.js';
import { call, TestUser } from '../support/api.js';
import { trustedBusRequest } from '../support/bus.js';

/**
 * The admin service does not trust the gateway alone: asked over NATS by a
 * platform process for a principal that is not an instance admin, it refuses
 * every operation. Its
 * service-to-service patterns (start-up settings, prompt resolution) answer.
 */
describe('admin service: its own authorization and internal patterns', () => {
  let nats: NatsConnection;
  let admin: TestUser;

  beforeAll(async () => {
    nats = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
    admin = await registerAdmin();
  });

  afterAll(async () => {
    await nats.drain();
  });

  // As a platform process asks: with a caller token signed for the envelope's principal.
  const ask = (pattern: string, data: unknown) => trustedBusRequest(nats, pattern, data);

  const principal = (overrides: Partial<Principal> = {}): Principal => ({
    userId: randomUUID(),
    sessionId: randomUUID(),
    isAdmin: false,
    tokenKind: 'session',
    workspaceId: null,
    ...overrides,
  });
  const envelope = (who: Principal | null) => ({
    principal: who,
    params: { id: randomUUID(), key: 'media.alt_text' },
    query: {},
    body: { value: 'x', provider: 'x', client_id: 'c', settings: [{ key: 'ai_model', value: 'x' }] },
    idempotencyKey: null,
    clientIp: '127.0.0.1',
  });
  const OPERATIONS = [ProviderAppOperations, InstanceSettingsOperations, AiPromptOperations, AdminDirectoryOperations].flatMap((group) =>
    Object.values(group).map((operation) => operation.subject),
  );

  it.each(OPERATIONS)('%s refuses a principal that is not an instance admin (403), or none (401)', async (pattern) => {
    expect(await ask(pattern, envelope(principal()))).toMatchObject({ err: { status: 403, code: 'admin_required' } });
    expect(await ask(pattern, envelope(principal({ isAdmin: true, workspaceId: randomUUID() })))).toMatchObject({
      err: { status: 403, code: 'workspace_token_forbidden' },
    });
    expect(await ask(pattern, envelope(null))).toMatchObject({ err: { status: 401 } });
  });

  it('hands services the saved overrides, secrets opened, for their start-up', async () => {
    const secret = `sk-${randomUUID()}`;
    const save = (settings: unknown) => adminCall('PUT', '/admin/instance-settings', { token: admin.token, body: { settings } });
    try {
      expect(
        (
          await save([
            { key: 'ai_api_key', value: secret },
            { key: 'sandbox_provider_enabled', value: 'false' },
          ])
        ).status,
      ).toBe(200);
      const reply = await ask(AdminPatterns.settingOverrides, {});
      expect(reply.response.overrides).toMatchObject({ ai_api_key: secret, sandbox_provider_enabled: 'false' });
    } finally {
      await save([
        { key: 'ai_api_key', unset: true },
        { key: 'sandbox_provider_enabled', unset: true },
      ]);
    }
    expect((await ask(AdminPatterns.settingOverrides, {})).response.overrides.ai_api_key).toBeUndefined();
    // Only the internal pattern hands it out: no HTTP answer carried it.
    expectNoSecretsInAnswers([secret]);
  });

  it('a stored secret that cannot be opened does not break E6, E5 or the start-up overrides (that row is skipped)', async () => {
    const save = (settings: unknown) => adminCall('PUT', '/admin/instance-settings', { token: admin.token, body: { settings } });
    try {
      expect(
        (
          await save([
            { key: 's3_secret_access_key', value: `s3-${randomUUID()}` },
            { key: 'sandbox_provider_enabled', value: 'false' },
          ])
        ).status,
      ).toBe(200);
      // As after a SECRETS_KEY change or a damaged row: the envelope no longer opens.
      await withDatabase((db) =>
        db.query(
          `UPDATE admin.instance_settings SET sealed_value = 'v1.AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA'
           WHERE key = 's3_secret_access_key'`,
        ),
      );
      const listed = await adminCall('GET', '/admin/instance-settings', { token: admin.token });
      expect(listed.status).toBe(200);
      expect(listed.body.settings.find((s: { key: string }) => s.key === 's3_secret_access_key')).toMatchObject({
        source: 'database',
        secret_configured: true,
        value: '',
      });
      expect((await save([{ key: 'sandbox_provider_enabled', value: 'true' }])).status).toBe(200);
      const reply = await ask(AdminPatterns.settingOverrides, {});
      expect(reply.response.overrides).toMatchObject({ sandbox_provider_enabled: 'true' });
      expect(reply.response.overrides.s3_secret_access_key).toBeUndefined();
    } finally {
      await save([
        { key: 's3_secret_access_key', unset: true },
        { key: 'sandbox_provider_enabled', unset: true },
      ]);
    }
  });

  it('resolves the effective prompt: a platform variant when the catalogue has one, else the base prompt', async () => {
    const path = '/admin/ai-prompts/publication_builds.draft@linkedin';
    try {
      expect((await adminCall('PUT', path, { token: admin.token, body: { value: 'LinkedIn draft prompt' } })).status).toBe(200);
      const variant = await ask(AdminPatterns.resolvePrompt, { key: 'publication_builds.draft', platform: 'linkedin' });
      expect(variant.response).toEqual({
        key: 'publication_builds.draft@linkedin',
        value: 'LinkedIn draft prompt',
        overridden: true,
        version: expect.stringMatching(/^override:/),
      });
    } finally {
      await adminCall('DELETE', path, { token: admin.token });
    }
    const base = await ask(AdminPatterns.resolvePrompt, { key: 'media.alt_text', platform: 'linkedin' });
    expect(base.response).toMatchObject({ key: 'media.alt_text', overridden: false, version: '1' });
    expect(await ask(AdminPatterns.resolvePrompt, { key: 'nope' })).toMatchObject({ err: { status: 404 } });
  });

  it(
    'hands services the provider app in effect, client secret opened: ' + 'environment before database, active only, never over HTTP',
    async () => {
      const secret = `tt-secret-${randomUUID()}`;
      const save = (body: Record<string, unknown>) => adminCall('POST', '/admin/provider-apps', { token: admin.token, body });
      const resolve = async (request: unknown) => (await ask(AdminPatterns.resolveProviderApp, request)).response.app;
      // Every member this test reads is sent: a save keeps the members it is not sent, and other suites on the same
      // stack (the malformed-input sweep) leave a tiktok app with odd values behind.
      const saved = await save({
        provider: 'tiktok',
        client_id: 'boundary-tiktok',
        client_secret: secret,
        bot_token: '',
        redirect_uri: '',
        connection_mode: 'oauth',
        is_active: true,
      });
      expect(saved.status).toBe(200);
      try {
        expect(await resolve({ provider: 'tiktok' })).toEqual({
          id: saved.body.app.id,
          provider: 'tiktok',
          instance_url: '',
          client_id: 'boundary-tiktok',
          client_secret: secret,
          bot_token: '',
          redirect_uri: '',
          connection_mode: 'oauth',
          source: 'database',
        });
        // A stored secret that no longer opens (another SECRETS_KEY, a damaged row) makes the app unusable, not a failure.
        await withDatabase((db) =>
          db.query(
            `UPDATE admin.provider_apps SET sealed_client_secret = 'v1.AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA' WHERE id = $1`,
            [saved.body.app.id],
          ),
        );
        expect(await resolve({ provider: 'tiktok' })).toBeNull();
        expect((await save({ provider: 'tiktok', client_id: 'boundary-tiktok', client_secret: secret, is_active: false })).status).toBe(
          200,
        );
        expect(await resolve({ provider: 'tiktok' })).toBeNull();
      } finally {
        await adminCall('DELETE', `/admin/provider-apps/${saved.body.app.id}`, { token: admin.token });
      }
      expect(await resolve({ provider: 'tiktok' })).toBeNull();

      // The environment's apps win over a database row with the same key, as E4 shows; mastodon servers match by origin.
      const [envYoutube, envMastodon] = ENVIRONMENT_PROVIDER_APPS;
      const inserted = await withDatabase(
        async (db) =>
          (
            await db.query(
              `INSERT INTO admin.provider_apps (id, provider, instance_url, name, client_id, redirect_uri, connection_mode, is_active,
                 created_at, updated_at)
             VALUES ($1, 'youtube', '', 'old youtube', 'old-client', '', 'oauth', true, now(), now()) ON CONFLICT DO NOTHING RETURNING id`,
              [randomUUID()],
            )
          ).rows,
      );
      try {
        expect(await resolve({ provider: 'youtube' })).toMatchObject({
          source: 'environment',
          client_id: envYoutube.client_id,
          client_secret: envYoutube.client_secret,
        });
      } finally {
        if (inserted[0]) await withDatabase((db) => db.query(`DELETE FROM admin.provider_apps WHERE id = $1`, [inserted[0].id]));
      }
      expect(await resolve({ provider: 'mastodon', instance_url: 'https://ENV.mastodon.example/some/path' })).toMatchObject({
        source: 'environment',
        instance_url: 'https://env.mastodon.example',
        client_secret: envMastodon.client_secret,
      });
      expect(await resolve({ provider: 'mastodon', instance_url: 'https://elsewhere.example' })).toBeNull();
      expect(await resolve({ provider: 'mastodon' })).toBeNull();
      expect(await resolve({ provider: 'myspace' })).toBeNull();
      expect(await resolve(null)).toBeNull();

      // The gateway has no route to it: the provider-app operations it documents are E3, E4 and DELETE, and no answer carried the secret.
      const paths = Object.entries((await call('GET', '/openapi.json')).body.paths as Record<string, object>)
        .filter(([path]) => path.includes('provider-apps'))
        .map(([path, operations]) => `${path} ${Object.keys(operations).sort().join(',')}`);
      expect(paths).toEqual(['/admin/provider-apps get,post', '/admin/provider-apps/{id} delete']);
      expect((await adminCall('GET', '/admin/provider-apps', { token: admin.token })).status).toBe(200);
      expectNoSecretsInAnswers([secret, envYoutube.client_secret, envMastodon.client_secret]);
    },
  );
});
