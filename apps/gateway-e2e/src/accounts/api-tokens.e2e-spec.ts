import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, NatsConnection } from '@nats-io/transport-node';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { call, eventually, expectProblem, registerUser, TestUser } from '../support/api.js';

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
    nats.publish(
      'events.accounts.session-revoked',
      JSON.stringify({ sessionId: id, until: new Date(Date.now() + 60_000).toISOString() }),
    );
    await eventually(async () => {
      expectProblem(await call('GET', '/auth/me', { token }), 401, 'token_revoked');
    });
  });
});
