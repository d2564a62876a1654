import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, NatsConnection } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { AdminPatterns, Principal } from '@social/contracts';
import { adminCall, expectNoSecretsInAnswers, registerAdmin, withDatabase } from '../support/admin.js';
import { TestUser } from '../support/api.js';

/**
 * The admin service does not trust the gateway alone: asked over NATS with a
 * principal that is not an instance admin, it refuses every operation. Its
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

  async function ask(pattern: string, data: unknown): Promise<{ response?: any; err?: any }> {
    const message = await nats.request(pattern, JSON.stringify({ pattern, data, id: randomUUID() }), { timeout: 5_000 });
    return message.json();
  }

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
  const OPERATIONS = Object.entries(AdminPatterns).filter(([name]) => !['settingOverrides', 'resolvePrompt'].includes(name));

  it.each(OPERATIONS)('%s refuses a principal that is not an instance admin (403), or none (401)', async (_name, pattern) => {
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
      expect((await save([{ key: 'ai_api_key', value: secret }, { key: 'sandbox_provider_enabled', value: 'false' }])).status).toBe(200);
      const reply = await ask(AdminPatterns.settingOverrides, {});
      expect(reply.response.overrides).toMatchObject({ ai_api_key: secret, sandbox_provider_enabled: 'false' });
    } finally {
      await save([{ key: 'ai_api_key', unset: true }, { key: 'sandbox_provider_enabled', unset: true }]);
    }
    expect((await ask(AdminPatterns.settingOverrides, {})).response.overrides.ai_api_key).toBeUndefined();
    // Only the internal pattern hands it out: no HTTP answer carried it.
    expectNoSecretsInAnswers([secret]);
  });

  it('a stored secret that cannot be opened does not break E6, E5 or the start-up overrides (that row is skipped)', async () => {
    const save = (settings: unknown) => adminCall('PUT', '/admin/instance-settings', { token: admin.token, body: { settings } });
    try {
      expect((await save([{ key: 's3_secret_access_key', value: `s3-${randomUUID()}` }, { key: 'sandbox_provider_enabled', value: 'false' }])).status).toBe(200);
      // As after a SECRETS_KEY change or a damaged row: the envelope no longer opens.
      await withDatabase((db) =>
        db.query(`UPDATE admin.instance_settings SET sealed_value = 'v1.AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA' WHERE key = 's3_secret_access_key'`),
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
      await save([{ key: 's3_secret_access_key', unset: true }, { key: 'sandbox_provider_enabled', unset: true }]);
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
});
