import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, NatsConnection } from '@nats-io/transport-node';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { testDatabase } from '../support/database.js';
import { call, eventually, expectProblem, registerUser, TestUser } from '../support/api.js';
import { GatewayReplica, startGatewayReplica } from '../support/gateway-replica.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';

/**
 * API tokens as bearer credentials. Issuing them is an accounts operation of
 * its own; here rows are written the way it stores them (SHA-256 only), to
 * prove the gateway → accounts verification path and its revocation.
 */
describe('accounts: API tokens as bearer tokens', () => {
  let db: pg.Client;
  let nats: NatsConnection;
  let user: TestUser;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
    await db.connect();
    nats = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
    user = await registerUser();
  });

  afterAll(async () => {
    await db.end();
    await nats.drain();
  });

  async function storeToken(changes: { expiresAt?: Date; revokedAt?: Date } = {}) {
    const token = `spk_${randomBytes(32).toString('base64url')}`;
    const id = randomUUID();
    await db.query(
      `INSERT INTO accounts.api_tokens (id, user_id, name, token_hash, created_at, expires_at, revoked_at)
       VALUES ($1, $2, 'ci', $3, now(), $4, $5)`,
      [id, user.id, createHash('sha256').update(token).digest('hex'), changes.expiresAt ?? null, changes.revokedAt ?? null],
    );
    return { id, token };
  }

  it('accepts a stored token for its user and records its use', async () => {
    const { id, token } = await storeToken();
    const me = await call('GET', '/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    const row = await db.query('SELECT last_used_at FROM accounts.api_tokens WHERE id = $1', [id]);
    expect(row.rows[0].last_used_at).not.toBeNull();
  });

  it('refuses unknown, expired and revoked tokens alike (401)', async () => {
    expectProblem(await call('GET', '/auth/me', { token: `spk_${randomBytes(32).toString('base64url')}` }), 401, 'invalid_token');
    const expired = await storeToken({ expiresAt: new Date(Date.now() - 1_000) });
    expectProblem(await call('GET', '/auth/me', { token: expired.token }), 401, 'invalid_token');
    const revoked = await storeToken({ revokedAt: new Date() });
    expectProblem(await call('GET', '/auth/me', { token: revoked.token }), 401, 'invalid_token');
  });

  it('stops a cached token within 5 s of its revocation event', async () => {
    const { id, token } = await storeToken();
    expect((await call('GET', '/auth/me', { token })).status).toBe(200);
    nats.publish('events.accounts.session-revoked', JSON.stringify({ sessionId: id, until: new Date(Date.now() + 60_000).toISOString() }));
    await eventually(async () => {
      expectProblem(await call('GET', '/auth/me', { token }), 401, 'token_revoked');
    });
  });
});

describe('accounts: issuing API tokens', () => {
  const db = testDatabase();

  const create = (user: TestUser, body: unknown) => call('POST', '/api-tokens', { token: user.token, body });
  const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

  it('POST answers 201 ApiTokenCreated once with the secret; only its hash is kept; it works as a bearer token', async () => {
    const user = await registerUser();
    const response = await create(user, { name: ' CI deploys ' });
    expect(response.status).toBe(201);
    await expectMatchesOwnSchema(response.body, 'ApiTokenCreated');
    expect(response.headers.get('location')).toBe(`/api-tokens/${response.body.item.id}`);
    expect(Object.keys(response.body).sort()).toEqual(['$schema', 'item', 'token']);
    expect(response.body.token).toMatch(/^spk_[A-Za-z0-9_-]{43}$/);
    expect(response.body.item).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'CI deploys',
      workspace_id: '',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      expires_at: null,
      last_used_at: null,
    });
    const row = await db.query('SELECT * FROM accounts.api_tokens WHERE id = $1', [response.body.item.id]);
    expect(row.rows[0].token_hash).toBe(sha256(response.body.token));
    expect(JSON.stringify(row.rows[0])).not.toContain(response.body.token);

    const me = await call('GET', '/auth/me', { token: response.body.token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    const listed = await call('GET', '/api-tokens', { token: user.token });
    expect(listed.status).toBe(200);
    await expectMatchesOwnSchema(listed.body, 'ApiTokenList');
    expect(listed.body.api_tokens).toEqual([{ ...response.body.item, last_used_at: expect.stringMatching(/Z$/) }]);
    expect(JSON.stringify(listed.body)).not.toContain(response.body.token);

    // Location names the token: readable by its owner only, never with the secret, gone once deleted.
    const read = await call('GET', response.headers.get('location')!, { token: user.token });
    expect(read.status).toBe(200);
    await expectMatchesOwnSchema(read.body, 'ApiToken');
    expect(read.body).toEqual({ ...listed.body.api_tokens[0], $schema: expect.stringMatching(/\/api\/v1\/schemas\/ApiToken\.json$/) });
    const stranger = await registerUser();
    expectProblem(await call('GET', `/api-tokens/${response.body.item.id}`, { token: stranger.token }), 404, 'not_found');
    expectProblem(await call('GET', '/api-tokens/not-a-uuid', { token: user.token }), 404, 'not_found');
    expect((await call('DELETE', `/api-tokens/${response.body.item.id}`, { token: user.token })).status).toBe(204);
    expectProblem(await call('GET', `/api-tokens/${response.body.item.id}`, { token: user.token }), 404, 'not_found');
  });

  it('keeps a future expires_at (UTC, milliseconds) and refuses a past one or bad input (422 with locations)', async () => {
    const user = await registerUser();
    const expires = new Date(Date.now() + 86_400_000);
    const offset = expires.toISOString().replace('Z', '+00:00');
    const created = await create(user, { name: 'nightly', expires_at: offset });
    expect(created.status).toBe(201);
    expect(created.body.item.expires_at).toBe(expires.toISOString());

    const past = expectProblem(await create(user, { name: 'old', expires_at: '2020-01-01T00:00:00Z' }), 422, 'validation_failed');
    expect(past.errors).toEqual([{ location: 'body.expires_at', message: 'must be in the future', value: '2020-01-01T00:00:00Z' }]);
    const cases: Array<[unknown, string]> = [
      [{}, 'body.name'],
      [{ name: '' }, 'body.name'],
      [{ name: '   ' }, 'body.name'],
      [{ name: 'n'.repeat(121) }, 'body.name'],
      [{ name: 42 }, 'body.name'],
      [{ name: 'x', expires_at: 'tomorrow' }, 'body.expires_at'],
      [{ name: 'x', expires_at: null }, 'body.expires_at'],
      [{ name: 'x', workspace_id: 'not-a-uuid' }, 'body.workspace_id'],
      [{ name: 'x', scopes: ['all'] }, 'body.scopes'],
    ];
    for (const [body, location] of cases) {
      const problem = expectProblem(await create(user, body), 422, 'validation_failed');
      expect(problem.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    expect((await create(user, { name: 'n'.repeat(120) })).status).toBe(201);
    expect((await call('GET', '/api-tokens', { token: user.token })).body.api_tokens).toHaveLength(2);
  });

  it('a token naming a workspace is 403 workspace_forbidden (the caller is a member of none yet); nothing is created', async () => {
    const user = await registerUser();
    expectProblem(await create(user, { name: 'bound', workspace_id: randomUUID() }), 403, 'workspace_forbidden');
    expect((await call('GET', '/api-tokens', { token: user.token })).body.api_tokens).toEqual([]);
  });

  it("DELETE (204) stops the token within 5 s even where it is cached; another user's id is 404 and changes nothing", async () => {
    const user = await registerUser();
    const other = await registerUser();
    const created = await create(user, { name: 'to delete' });
    const { token, item } = created.body;
    expect((await call('GET', '/auth/me', { token })).status).toBe(200);

    expectProblem(await call('DELETE', `/api-tokens/${item.id}`, { token: other.token }), 404, 'not_found');
    expectProblem(await call('DELETE', `/api-tokens/${randomUUID()}`, { token: user.token }), 404, 'not_found');
    expectProblem(await call('DELETE', '/api-tokens/not-an-id', { token: user.token }), 404, 'not_found');
    expect((await call('GET', '/auth/me', { token })).status).toBe(200);
    expect((await call('GET', '/api-tokens', { token: other.token })).body.api_tokens).toEqual([]);

    const deleted = await call('DELETE', `/api-tokens/${item.id}`, { token: user.token });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    await eventually(async () => {
      expectProblem(await call('GET', '/auth/me', { token }), 401, 'token_revoked');
    });
    expect((await call('GET', '/api-tokens', { token: user.token })).body.api_tokens).toEqual([]);
    expectProblem(await call('DELETE', `/api-tokens/${item.id}`, { token: user.token }), 404, 'not_found');
  });

  it('a workspace-bound token may not mint tokens or touch account security (403 workspace_token_forbidden)', async () => {
    const user = await registerUser();
    const token = `spk_${randomBytes(32).toString('base64url')}`;
    await db.query(
      `INSERT INTO accounts.api_tokens (id, user_id, name, token_hash, workspace_id, created_at)
       VALUES ($1, $2, 'bound', $3, $4, now())`,
      [randomUUID(), user.id, sha256(token), randomUUID()],
    );
    // It still authenticates where workspace tokens are allowed.
    expect((await call('GET', '/auth/me', { token })).status).toBe(200);
    const id = randomUUID();
    const refused: Array<[string, string, unknown?]> = [
      ['POST', '/api-tokens', { name: 'minted' }],
      ['GET', '/api-tokens'],
      ['DELETE', `/api-tokens/${id}`],
      ['POST', '/auth/reauth', { password: user.password }],
      ['GET', '/auth/security'],
      ['POST', '/auth/security/passkeys/begin', { reauth_grant: 'rg_x' }],
      ['POST', '/auth/security/passkeys/finish', { challenge_id: id, credential: {}, name: 'x' }],
      ['DELETE', `/auth/security/passkeys/${id}`],
      ['POST', '/auth/email-change', { new_email: 'x@example.com', reauth_grant: 'rg_x' }],
      ['GET', '/auth/email-change'],
      ['POST', `/auth/email-change/${id}/confirm`, { code: '123456' }],
      ['DELETE', `/auth/email-change/${id}`],
    ];
    for (const [method, path, body] of refused) {
      expectProblem(await call(method, path, { token, body }), 403, 'workspace_token_forbidden');
    }
    expect((await call('GET', '/api-tokens', { token: user.token })).body.api_tokens.map((t: { name: string }) => t.name)).toEqual([
      'bound',
    ]);
  });
});

describe('accounts: revoking API tokens and sessions on every gateway replica', () => {
  let second: GatewayReplica;
  let secondBase: string;

  beforeAll(async () => {
    second = await startGatewayReplica();
    secondBase = second.baseUrl;
  });

  afterAll(async () => {
    await second?.stop();
  });

  const meOnSecond = async (token: string) => {
    const response = await fetch(`${secondBase}/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as { code?: string } };
  };

  it('a deleted API token stops within 5 s on both replicas, though each had it cached', async () => {
    const user = await registerUser();
    const created = await call('POST', '/api-tokens', { token: user.token, body: { name: 'replicated' } });
    const { token, item } = created.body;
    expect((await call('GET', '/auth/me', { token })).status).toBe(200);
    expect((await meOnSecond(token)).status).toBe(200);
    expect((await call('DELETE', `/api-tokens/${item.id}`, { token: user.token })).status).toBe(204);
    await eventually(async () => {
      expectProblem(await call('GET', '/auth/me', { token }), 401, 'token_revoked');
      expect(await meOnSecond(token)).toEqual({ status: 401, body: expect.objectContaining({ code: 'token_revoked' }) });
    });
  });

  it('logout stops the access token within 5 s on both replicas', async () => {
    const user = await registerUser();
    expect((await meOnSecond(user.token)).status).toBe(200);
    expect((await call('POST', '/auth/logout', { token: user.token })).status).toBe(204);
    await eventually(async () => {
      expectProblem(await call('GET', '/auth/me', { token: user.token }), 401, 'token_revoked');
      expect(await meOnSecond(user.token)).toEqual({ status: 401, body: expect.objectContaining({ code: 'token_revoked' }) });
    });
  });
});
