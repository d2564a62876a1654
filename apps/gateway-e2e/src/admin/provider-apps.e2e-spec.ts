import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { expectProblem, registerUser, TestUser } from '../support/api.js';
import { adminCall, expectNoSecretsInAnswers, locations, registerAdmin, withDatabase, workspaceToken } from '../support/admin.js';
import { ENVIRONMENT_PROVIDER_APPS } from '@social/testing';
import { expectMatchesOwnSchema, expectMatchesSchema } from '../support/schemas.js';

const SECRETS = {
  client: `client-secret-${randomUUID()}`,
  client2: `client-secret-2-${randomUUID()}`,
  bot: `bot-token-${randomUUID()}`,
  webhook: `webhook-secret-${randomUUID()}`,
  mastodon: `mastodon-secret-${randomUUID()}`,
};

describe('admin: provider apps (E3, E4, DELETE)', () => {
  let admin: TestUser;
  const save = (body: unknown, token = admin.token) => adminCall('POST', '/admin/provider-apps', { token, body });
  const list = (token = admin.token) => adminCall('GET', '/admin/provider-apps', { token });

  beforeAll(async () => {
    admin = await registerAdmin();
  });

  // (Node 20's URL parser also refused `https://xn--a.example.com`; Node 22+ takes it.)
  it.each(['https://a\uFFFDb.example.com'])(
    'E3 answers 422 at body.instance_url for %s (accepted by @IsUrl, not a URL to WHATWG)',
    async (instance_url) => {
      const problem = expectProblem(await save({ provider: 'mastodon', client_id: 'odd-url', instance_url }), 422, 'validation_failed');
      expect(locations(problem)).toEqual(['body.instance_url']);
    },
  );

  it('E3 creates an app (200, existed false, requires_restart) and answers only *_configured flags', async () => {
    const response = await save({
      provider: 'linkedin',
      client_id: 'li-client',
      client_secret: SECRETS.client,
      bot_token: SECRETS.bot,
      name: 'LinkedIn (main)',
      redirect_uri: 'https://app.example.com/callback/linkedin',
      connection_mode: 'oauth',
      is_active: true,
    });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'SaveProviderAppResponse');
    expect(response.body).toEqual({
      $schema: expect.any(String),
      existed: false,
      requires_restart: true,
      app: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        provider: 'linkedin',
        name: 'LinkedIn (main)',
        client_id: 'li-client',
        secret_configured: true,
        bot_token_configured: true,
        bot_username: '',
        webhook_secret_configured: false,
        redirect_uri: 'https://app.example.com/callback/linkedin',
        instance_url: '',
        connection_mode: 'oauth',
        is_active: true,
        source: 'database',
        editable: true,
        deletable: true,
        shadowed_by_environment: false,
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
      },
    });
  });

  it('E3 upserts by (provider, instance_url): same id, existed true, omitted members and secrets kept, "" clears a secret', async () => {
    const first = await save({ provider: 'threads', client_id: 'th-1', client_secret: SECRETS.client, bot_token: SECRETS.bot });
    const second = await save({ provider: 'threads', client_id: 'th-2', webhook_secret: SECRETS.webhook, bot_token: '', is_active: false });
    expect(second.status).toBe(200);
    expect(second.body.existed).toBe(true);
    expect(second.body.app).toMatchObject({
      id: first.body.app.id,
      client_id: 'th-2',
      name: 'threads',
      secret_configured: true,
      bot_token_configured: false,
      webhook_secret_configured: true,
      is_active: false,
      created_at: first.body.app.created_at,
    });
    const third = await save({ provider: 'threads', client_id: 'th-2', client_secret: SECRETS.client2 });
    expect(third.body.app).toMatchObject({ id: first.body.app.id, secret_configured: true, is_active: false });

    // A save that omits the secrets leaves the sealed values untouched in the database.
    const sealedNow = () =>
      withDatabase(
        async (db) =>
          (await db.query(`SELECT sealed_client_secret, sealed_webhook_secret FROM admin.provider_apps WHERE id = $1`, [first.body.app.id]))
            .rows[0],
      );
    const before = await sealedNow();
    expect(before.sealed_client_secret).toMatch(/^v2\./);
    const fourth = await save({ provider: 'threads', client_id: 'th-3', name: 'Threads' });
    expect(fourth.body.app).toMatchObject({
      id: first.body.app.id,
      client_id: 'th-3',
      secret_configured: true,
      webhook_secret_configured: true,
    });
    expect(await sealedNow()).toEqual(before);
  });

  it('E3 racing a DELETE of the same app never answers 500', async () => {
    const failures: string[] = [];
    for (let round = 0; round < 15; round++) {
      const created = await save({ provider: 'bluesky', client_id: `race-${round}`, client_secret: SECRETS.client });
      expect(created.status).toBe(200);
      const [updated, deleted] = await Promise.all([
        save({ provider: 'bluesky', client_id: `race-${round}-b`, name: 'raced' }),
        adminCall('DELETE', `/admin/provider-apps/${created.body.app.id}`, { token: admin.token }),
      ]);
      if (updated.status !== 200) failures.push(`save ${updated.status}`);
      if (deleted.status !== 204) failures.push(`delete ${deleted.status}`);
      const left = (await list()).body.filter(
        (app: { provider: string; source: string }) => app.provider === 'bluesky' && app.source === 'database',
      );
      for (const app of left) await adminCall('DELETE', `/admin/provider-apps/${app.id}`, { token: admin.token });
    }
    expect(failures).toEqual([]);
  });

  it('keeps secrets encrypted at rest (AES-256-GCM envelopes, never the plaintext)', async () => {
    const rows = await withDatabase(
      async (db) => (await db.query(`SELECT * FROM admin.provider_apps WHERE provider IN ('linkedin', 'threads')`)).rows,
    );
    expect(rows.length).toBe(2);
    for (const row of rows) {
      const stored = JSON.stringify(row);
      for (const secret of Object.values(SECRETS)) expect(stored).not.toContain(secret);
      expect(row.sealed_client_secret).toMatch(/^v2\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
    }
  });

  it('mastodon apps are keyed per instance; instance_url is required for mastodon and refused for others', async () => {
    const one = await save({
      provider: 'mastodon',
      instance_url: 'https://Social.Example.org/',
      client_id: 'm1',
      client_secret: SECRETS.mastodon,
    });
    expect(one.status).toBe(200);
    expect(one.body.app.instance_url).toBe('https://social.example.org');
    const other = await save({ provider: 'mastodon', instance_url: 'https://other.example.org', client_id: 'm2' });
    expect(other.body).toMatchObject({ existed: false });
    expect(other.body.app.id).not.toBe(one.body.app.id);
    const again = await save({ provider: 'mastodon', instance_url: 'https://social.example.org', client_id: 'm3' });
    expect(again.body).toMatchObject({ existed: true, app: { id: one.body.app.id, client_id: 'm3', secret_configured: true } });

    const missing = expectProblem(await save({ provider: 'mastodon', client_id: 'm' }), 422, 'validation_failed');
    expect(locations(missing)).toEqual(['body.instance_url']);
    const refused = expectProblem(
      await save({ provider: 'x', client_id: 'x', instance_url: 'https://x.example.com' }),
      422,
      'validation_failed',
    );
    expect(locations(refused)).toEqual(['body.instance_url']);
    const notHttps = expectProblem(await save({ provider: 'mastodon', client_id: 'm', instance_url: 'http://plain.example.org' }), 422);
    expect(locations(notHttps)).toEqual(['body.instance_url']);
  });

  it('refuses bad input with 422 naming each location', async () => {
    const unknown = expectProblem(await save({ provider: 'myspace', client_id: 'c' }), 422, 'validation_failed');
    expect(locations(unknown)).toEqual(['body.provider']);
    const missing = expectProblem(await save({ provider: 'x' }), 422);
    expect(locations(missing)).toEqual(['body.client_id']);
    const many = expectProblem(
      await save({ provider: 'x', client_id: '', connection_mode: 'carrier-pigeon', is_active: 'yes', redirect_uri: 'ftp://x', extra: 1 }),
      422,
    );
    expect(locations(many).sort()).toEqual(
      ['body.client_id', 'body.connection_mode', 'body.extra', 'body.is_active', 'body.redirect_uri'].sort(),
    );
    const nullSecret = expectProblem(await save({ provider: 'x', client_id: 'c', client_secret: null }), 422);
    expect(locations(nullSecret)).toEqual(['body.client_secret']);
    expectProblem(
      await adminCall('POST', '/admin/provider-apps', {
        token: admin.token,
        rawBody: '[1]',
        headers: { 'content-type': 'application/json' },
      }),
      400,
    );
  });

  it('E4 lists every app as a bare array without $schema: environment apps first, not editable, shadowing database ones', async () => {
    // A database app saved before the same app moved to the environment (written as the admin service stores it).
    const [envYoutube] = ENVIRONMENT_PROVIDER_APPS;
    await withDatabase((db) =>
      db.query(
        `INSERT INTO admin.provider_apps (id, provider, instance_url, name, client_id, redirect_uri, connection_mode, is_active, created_at,
           updated_at)
         VALUES ($1, 'youtube', '', 'old youtube', 'old-client', '', 'oauth', true, now(), now())`,
        [randomUUID()],
      ),
    );
    const response = await list();
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    for (const app of response.body) await expectMatchesSchema(app, 'ProviderApp');
    const youtube = response.body.filter((app: { provider: string }) => app.provider === 'youtube');
    expect(youtube).toEqual([
      expect.objectContaining({
        source: 'environment',
        client_id: envYoutube.client_id,
        secret_configured: true,
        editable: false,
        deletable: false,
        shadowed_by_environment: false,
      }),
      expect.objectContaining({
        source: 'database',
        client_id: 'old-client',
        secret_configured: false,
        editable: true,
        shadowed_by_environment: true,
      }),
    ]);
    const envMastodon = response.body.find((app: { instance_url: string }) => app.instance_url === 'https://env.mastodon.example');
    expect(envMastodon).toMatchObject({ provider: 'mastodon', source: 'environment', editable: false });
    expect(response.body.find((app: { provider: string }) => app.provider === 'linkedin')).toMatchObject({ source: 'database' });
  });

  it('refuses to save or delete an environment app: 409 managed_by_environment', async () => {
    expectProblem(await save({ provider: 'youtube', client_id: 'mine' }), 409, 'managed_by_environment');
    expectProblem(
      await save({ provider: 'mastodon', instance_url: 'https://env.mastodon.example/', client_id: 'mine' }),
      409,
      'managed_by_environment',
    );
    const envApp = (await list()).body.find((app: { source: string }) => app.source === 'environment');
    expectProblem(await adminCall('DELETE', `/admin/provider-apps/${envApp.id}`, { token: admin.token }), 409, 'managed_by_environment');
  });

  it('DELETE removes a database app (204); then, or for an unknown id, 404', async () => {
    const created = await save({ provider: 'discord', client_id: 'd', bot_token: SECRETS.bot, connection_mode: 'bot' });
    expect(created.body.app.connection_mode).toBe('bot');
    const deleted = await adminCall('DELETE', `/admin/provider-apps/${created.body.app.id}`, { token: admin.token });
    expect(deleted.status).toBe(204);
    expect((await list()).body.some((app: { id: string }) => app.id === created.body.app.id)).toBe(false);
    expectProblem(await adminCall('DELETE', `/admin/provider-apps/${created.body.app.id}`, { token: admin.token }), 404, 'not_found');
    expectProblem(await adminCall('DELETE', '/admin/provider-apps/not-a-uuid', { token: admin.token }), 404, 'not_found');
  });

  it('answers 403 to a user who is not an instance admin, and to a workspace-bound token', async () => {
    const user = await registerUser();
    const apps = (await list()).body;
    expectProblem(await save({ provider: 'x', client_id: 'c' }, user.token), 403, 'admin_required');
    expectProblem(await list(user.token), 403, 'admin_required');
    expectProblem(await adminCall('DELETE', `/admin/provider-apps/${apps[0].id}`, { token: user.token }), 403, 'admin_required');
    const token = await workspaceToken(admin);
    expectProblem(await list(token), 403, 'workspace_token_forbidden');
    expectProblem(await save({ provider: 'x', client_id: 'c' }, token), 403, 'workspace_token_forbidden');
    expectProblem(await adminCall('GET', '/admin/provider-apps'), 401);
  });

  it('never answers a secret it was sent, nor one from the environment', () => {
    expectNoSecretsInAnswers([...Object.values(SECRETS), ...ENVIRONMENT_PROVIDER_APPS.map((app) => app.client_secret)]);
  });
});
