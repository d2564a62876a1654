import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { PROMOTED_ADMIN_LABEL } from '../support/admin.js';
import { call, eventually, expectProblem, PASSWORD, randomIp, registerUser, uniqueEmail } from '../support/api.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';

const USER_PROFILE_FIELDS = [
  'avatar_url',
  'composer_experience',
  'created_at',
  'display_name',
  'email',
  'email_verified',
  'has_password',
  'id',
  'is_admin',
  'is_managed',
  'legal_acceptance_required',
  'legal_accepted_at',
  'managed_organization_name',
  'password_usable',
  'privacy_version',
  'public_profile_enabled',
  'public_profile_visible_fields',
  'terms_version',
  'username',
];
const RFC3339_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('accounts: register', () => {
  it('creates the account and answers 201 AuthTokens with every field', async () => {
    const email = uniqueEmail('Ada');
    const response = await call('POST', '/auth/register', {
      body: { email, password: PASSWORD, display_name: 'Ada Lovelace', username: `ada_${Date.now()}`, $schema: 'ignored' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/auth/me');
    await expectMatchesOwnSchema(response.body, 'AuthTokens');
    expect(Object.keys(response.body).sort()).toEqual(['$schema', 'access_token', 'expires_in', 'refresh_token', 'token_type', 'user']);
    expect(response.body.token_type).toBe('Bearer');
    expect(response.body.expires_in).toBe(900);
    expect(response.body.access_token.split('.')).toHaveLength(3);
    expect(response.body.refresh_token).toMatch(/^rt_/);
    const user = response.body.user;
    expect(Object.keys(user).sort()).toEqual(USER_PROFILE_FIELDS);
    expect(user).toMatchObject({
      email,
      display_name: 'Ada Lovelace',
      email_verified: false,
      has_password: true,
      password_usable: true,
      is_managed: false,
      composer_experience: 'specialized',
      legal_accepted_at: null,
      public_profile_visible_fields: [],
    });
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect(user.created_at).toMatch(RFC3339_MS);
    expect(user).not.toHaveProperty('$schema');
  });

  it('makes exactly the first account of the instance its admin', async () => {
    await registerUser();
    await registerUser();
    const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
    await db.connect();
    try {
      const first = await db.query('SELECT id FROM accounts.users ORDER BY created_at, id LIMIT 1');
      // Admin suites promote users of their own (support/admin.ts): any admin but the first must be one of those.
      const admins = await db.query(
        `SELECT id FROM accounts.users WHERE is_admin AND (id = $1 OR email NOT LIKE '${PROMOTED_ADMIN_LABEL}-%')`,
        [first.rows[0].id],
      );
      expect(admins.rows).toEqual(first.rows);
      const later = await registerUser();
      const me = await call('GET', '/auth/me', { token: later.token });
      expect(me.body.is_admin).toBe(false);
    } finally {
      await db.end();
    }
  });

  it('refuses a taken email (ignoring case) or username with 409', async () => {
    const user = await registerUser({ username: `taken_${Date.now()}` });
    expectProblem(
      await call('POST', '/auth/register', { body: { email: user.email.toUpperCase(), password: PASSWORD } }),
      409,
      'email_taken',
    );
    const me = await call('GET', '/auth/me', { token: user.token });
    expectProblem(
      await call('POST', '/auth/register', {
        body: { email: uniqueEmail(), password: PASSWORD, username: me.body.username.toUpperCase() },
      }),
      409,
      'username_taken',
    );
  });

  it('names every invalid member with 422', async () => {
    const response = await call('POST', '/auth/register', {
      body: { email: 'not-an-email', password: 'short', username: 'a b', color: 'blue' },
    });
    const problem = expectProblem(response, 422, 'validation_failed');
    const locations = problem.errors.map((e: { location: string }) => e.location);
    expect(locations).toEqual(expect.arrayContaining(['body.email', 'body.password', 'body.username', 'body.color']));
    expect(problem.errors.find((e: { location: string }) => e.location === 'body.color').message).toBe('unexpected property');
    const missing = expectProblem(await call('POST', '/auth/register', { body: {} }), 422, 'validation_failed');
    expect(missing.errors.map((e: { location: string }) => e.location)).toEqual(expect.arrayContaining(['body.email', 'body.password']));
    expectProblem(await call('POST', '/auth/register', { body: { email: uniqueEmail(), password: 12345678901234 } }), 422);
  });

  it('limits registration attempts to 5 per email per hour (429 with Retry-After)', async () => {
    const email = uniqueEmail('limited');
    expect((await call('POST', '/auth/register', { body: { email, password: PASSWORD } })).status).toBe(201);
    for (let i = 0; i < 4; i++) {
      expectProblem(await call('POST', '/auth/register', { body: { email, password: PASSWORD } }), 409, 'email_taken');
    }
    const limited = await call('POST', '/auth/register', { body: { email, password: PASSWORD } });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('accounts: login', () => {
  it('signs in with the right password (email ignoring case)', async () => {
    const user = await registerUser();
    const response = await call('POST', '/auth/login', { body: { email: user.email.toUpperCase(), password: PASSWORD } });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'AuthTokens');
    expect(response.body.user.id).toBe(user.id);
    expect((await call('GET', '/auth/me', { token: response.body.access_token })).status).toBe(200);
  });

  it('answers a wrong password and an unknown email identically (401)', async () => {
    const user = await registerUser();
    const wrong = expectProblem(
      await call('POST', '/auth/login', { body: { email: user.email, password: 'wrong password!!' } }),
      401,
      'invalid_credentials',
    );
    const unknown = expectProblem(
      await call('POST', '/auth/login', { body: { email: uniqueEmail(), password: PASSWORD } }),
      401,
      'invalid_credentials',
    );
    expect(wrong.detail).toBe(unknown.detail);
    expectProblem(await call('POST', '/auth/login', { body: { email: user.email } }), 422, 'validation_failed');
  });

  it('limits failed sign-ins to 10 per (email, client address) per 15 minutes; another address is not locked out', async () => {
    const user = await registerUser();
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      expect((await call('POST', '/auth/login', { ip, body: { email: user.email, password: 'wrong password!!' } })).status).toBe(401);
    }
    const limited = await call('POST', '/auth/login', { ip, body: { email: user.email, password: PASSWORD } });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The attacker's failures never lock the user out from where they sign in.
    expect((await call('POST', '/auth/login', { ip: randomIp(), body: { email: user.email, password: PASSWORD } })).status).toBe(200);
  });

  it('does not count successful sign-ins', async () => {
    const user = await registerUser();
    const ip = randomIp();
    for (let i = 0; i < 12; i++) {
      expect((await call('POST', '/auth/login', { ip, body: { email: user.email, password: PASSWORD } })).status).toBe(200);
    }
  });

  it('limits attempts to 20 per client address per 15 minutes', async () => {
    const ip = randomIp();
    for (let i = 0; i < 20; i++) {
      const attempt = await call('POST', '/auth/login', { ip, body: { email: uniqueEmail(), password: PASSWORD } });
      expect(attempt.status).toBe(401);
    }
    expectProblem(await call('POST', '/auth/login', { ip, body: { email: uniqueEmail(), password: PASSWORD } }), 429, 'rate_limited');
    expect((await call('POST', '/auth/login', { body: { email: uniqueEmail(), password: PASSWORD } })).status).toBe(401);
  });
});

describe('accounts: refresh and logout', () => {
  it('rotates the pair; the old refresh token stops working', async () => {
    const user = await registerUser();
    const rotated = await call('POST', '/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(rotated.status).toBe(200);
    await expectMatchesOwnSchema(rotated.body, 'AuthTokens');
    expect(rotated.body.refresh_token).not.toBe(user.refreshToken);
    expect((await call('GET', '/auth/me', { token: rotated.body.access_token })).status).toBe(200);
  });

  it('revokes the whole session when a rotated refresh token is reused', async () => {
    const user = await registerUser();
    const rotated = await call('POST', '/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expectProblem(await call('POST', '/auth/refresh', { body: { refresh_token: user.refreshToken } }), 401, 'invalid_refresh_token');
    expectProblem(
      await call('POST', '/auth/refresh', { body: { refresh_token: rotated.body.refresh_token } }),
      401,
      'invalid_refresh_token',
    );
    await eventually(async () => {
      expectProblem(await call('GET', '/auth/me', { token: rotated.body.access_token }), 401, 'token_revoked');
    });
  });

  it('refuses unknown refresh tokens (401) and bad input (422)', async () => {
    expectProblem(await call('POST', '/auth/refresh', { body: { refresh_token: 'rt_nope' } }), 401, 'invalid_refresh_token');
    expectProblem(await call('POST', '/auth/refresh', { body: {} }), 422, 'validation_failed');
  });

  it('logs out: 204, and the access token stops working within 5 s; other sessions go on', async () => {
    const user = await registerUser();
    const other = await call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } });
    const response = await call('POST', '/auth/logout', { token: user.token });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    await eventually(async () => {
      expectProblem(await call('GET', '/auth/me', { token: user.token }), 401, 'token_revoked');
    });
    expectProblem(await call('POST', '/auth/refresh', { body: { refresh_token: user.refreshToken } }), 401, 'invalid_refresh_token');
    expect((await call('GET', '/auth/me', { token: other.body.access_token })).status).toBe(200);
    expectProblem(await call('POST', '/auth/logout'), 401, 'unauthenticated');
  });
});
