import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { testDatabase } from '../support/database.js';
import { call, expectProblem, registerUser, TestUser } from '../support/api.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { reauthGrant } from '../support/security.js';

/** POST /auth/reauth and the single-use grant it issues (consumed here by passkey registration, E2 has its own suite). */
describe('accounts: re-authentication', () => {
  const db = testDatabase();

  const begin = (user: TestUser, body: unknown) => call('POST', '/auth/security/passkeys/begin', { token: user.token, body });

  it('answers a ReauthGrant for the right password, valid 5 minutes and stored only as a hash', async () => {
    const user = await registerUser();
    const before = Date.now();
    const response = await call('POST', '/auth/reauth', { token: user.token, body: { password: user.password } });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'ReauthGrant');
    expect(Object.keys(response.body).sort()).toEqual(['$schema', 'expires_at', 'reauth_grant']);
    expect(response.body.reauth_grant).toMatch(/^rg_[A-Za-z0-9_-]{43}$/);
    expect(response.body.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const lifetime = Date.parse(response.body.expires_at) - before;
    expect(lifetime).toBeGreaterThan(290_000);
    expect(lifetime).toBeLessThanOrEqual(302_000);
    const rows = await db.query('SELECT grant_hash FROM accounts.reauth_grants WHERE user_id = $1', [user.id]);
    expect(rows.rows).toEqual([{ grant_hash: createHash('sha256').update(response.body.reauth_grant).digest('hex') }]);
  });

  it('refuses a wrong password (401), no token (401) and bad bodies (422 with locations)', async () => {
    const user = await registerUser();
    expectProblem(
      await call('POST', '/auth/reauth', { token: user.token, body: { password: 'not the password' } }),
      401,
      'invalid_credentials',
    );
    expectProblem(await call('POST', '/auth/reauth', { body: { password: user.password } }), 401, 'unauthenticated');
    const missing = expectProblem(await call('POST', '/auth/reauth', { token: user.token, body: {} }), 422, 'validation_failed');
    expect(missing.errors).toEqual([{ location: 'body.password', message: 'is required' }]);
    const wrongType = expectProblem(await call('POST', '/auth/reauth', { token: user.token, body: { password: 12345 } }), 422);
    expect(wrongType.errors.map((e: { location: string }) => e.location)).toContain('body.password');
    const extra = expectProblem(
      await call('POST', '/auth/reauth', { token: user.token, body: { password: user.password, remember: true } }),
      422,
    );
    expect(extra.errors).toEqual([{ location: 'body.remember', message: 'unexpected property' }]);
  });

  it('after 10 failures in 15 minutes refuses even the right password (429 with Retry-After); other users are unaffected', async () => {
    const user = await registerUser();
    const other = await registerUser();
    for (let i = 0; i < 10; i++) {
      expectProblem(
        await call('POST', '/auth/reauth', { token: user.token, body: { password: `wrong ${i}` } }),
        401,
        'invalid_credentials',
      );
    }
    const limited = await call('POST', '/auth/reauth', { token: user.token, body: { password: user.password } });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect((await call('POST', '/auth/reauth', { token: other.token, body: { password: other.password } })).status).toBe(200);
  });

  it('holds the limit for guesses sent in parallel: at most 10 are judged, and right passwords do not count', async () => {
    const user = await registerUser();
    for (let i = 0; i < 3; i++) {
      expect((await call('POST', '/auth/reauth', { token: user.token, body: { password: user.password } })).status).toBe(200);
    }
    const guesses = await Promise.all(
      Array.from({ length: 25 }, (_, i) => call('POST', '/auth/reauth', { token: user.token, body: { password: `guess ${i}` } })),
    );
    const statuses = guesses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expectProblem(await call('POST', '/auth/reauth', { token: user.token, body: { password: user.password } }), 429, 'rate_limited');
  });

  it('a grant is single use (401 reauth_required the second time)', async () => {
    const user = await registerUser();
    const grant = await reauthGrant(user);
    expect((await begin(user, { reauth_grant: grant })).status).toBe(200);
    expectProblem(await begin(user, { reauth_grant: grant }), 401, 'reauth_required');
  });

  it("refuses an unknown, expired, another user's or another session's grant (401), a missing one is 422", async () => {
    const user = await registerUser();
    const other = await registerUser();
    expectProblem(await begin(user, { reauth_grant: 'rg_unknown' }), 401, 'reauth_required');
    expectProblem(await begin(user, { reauth_grant: await reauthGrant(other) }), 401, 'reauth_required');

    const secondSession = await call('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    expect(secondSession.status).toBe(200);
    expectProblem(
      await begin({ ...user, token: secondSession.body.access_token }, { reauth_grant: await reauthGrant(user) }),
      401,
      'reauth_required',
    );

    const expired = await reauthGrant(user);
    await db.query(`UPDATE accounts.reauth_grants SET expires_at = now() - interval '1 second' WHERE grant_hash = $1`, [
      createHash('sha256').update(expired).digest('hex'),
    ]);
    expectProblem(await begin(user, { reauth_grant: expired }), 401, 'reauth_required');

    const missing = expectProblem(await begin(user, {}), 422, 'validation_failed');
    expect(missing.errors).toEqual([{ location: 'body.reauth_grant', message: 'is required' }]);
    const wrongType = expectProblem(await begin(user, { reauth_grant: 42 }), 422, 'validation_failed');
    expect(wrongType.errors[0].location).toBe('body.reauth_grant');
  });
});
