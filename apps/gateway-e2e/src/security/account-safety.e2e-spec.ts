import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { workspaceToken } from '../support/admin.js';
import { call, eventually, expectProblem, PASSWORD, randomIp, registerUser, uniqueEmail } from '../support/api.js';
import { waitForMail } from '../support/mail.js';

/** Issue 23, the edge (docs/decisions.md "Account safety"), over HTTP against the running platform. */
describe('security: POST /auth/password', () => {
  const NEW_PASSWORD = 'a brand new passphrase 42';

  it(
    'changes the password: other sessions and every API token stop ' + 'working within 5 s, this session stays, a security mail goes out',
    async () => {
      const user = await registerUser();
      const other = await call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } });
      expect(other.status).toBe(200);
      const token = await call('POST', '/api-tokens', { token: user.token, body: { name: 'ci' } });
      expect(token.status).toBe(201);
      expect((await call('GET', '/auth/me', { token: token.body.token })).status).toBe(200);

      const changed = await call('POST', '/auth/password', {
        token: user.token,
        body: { current_password: PASSWORD, new_password: NEW_PASSWORD },
      });
      expect(changed.status).toBe(204);
      expect(changed.body).toBe('');

      await eventually(async () => {
        expectProblem(await call('GET', '/auth/me', { token: other.body.access_token }), 401);
        expectProblem(await call('GET', '/auth/me', { token: token.body.token }), 401);
      }, 5_000);
      expect((await call('GET', '/auth/me', { token: user.token })).status).toBe(200);
      // The other session cannot come back through its refresh token either.
      expectProblem(await call('POST', '/auth/refresh', { body: { refresh_token: other.body.refresh_token } }), 401);
      expect((await call('GET', '/api-tokens', { token: user.token })).body.api_tokens).toEqual([]);
      expectProblem(await call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } }), 401, 'invalid_credentials');
      expect((await call('POST', '/auth/login', { body: { email: user.email, password: NEW_PASSWORD } })).status).toBe(200);
      const mail = await waitForMail(user.email, (m) => /password/i.test(`${m.subject} ${m.text}`));
      expect(mail.to).toContain(user.email);
    },
  );

  it('a wrong current password is 422 at body.current_password (invalid_password), counted like failed sign-ins', async () => {
    const user = await registerUser();
    const ip = randomIp();
    const wrong = expectProblem(
      await call('POST', '/auth/password', {
        ip,
        token: user.token,
        body: { current_password: 'not my password', new_password: NEW_PASSWORD },
      }),
      422,
      'invalid_password',
    );
    expect(wrong.errors.map((e: { location: string }) => e.location)).toEqual(['body.current_password']);
    // Nine more failures from this address reach the sign-in limit of the (email, address) pair: even the right one is 429 then.
    for (let i = 0; i < 9; i++) {
      expect((await call('POST', '/auth/login', { ip, body: { email: user.email, password: 'wrong password!!' } })).status).toBe(401);
    }
    const limited = await call('POST', '/auth/password', {
      ip,
      token: user.token,
      body: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Elsewhere it still works, and the password was never changed by the refused attempts.
    expect((await call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } })).status).toBe(200);
  });

  it('refuses bad input (422 naming each member), no token (401), an API token (403), and a workspace-bound token (403)', async () => {
    const user = await registerUser();
    const short = expectProblem(
      await call('POST', '/auth/password', { token: user.token, body: { current_password: PASSWORD, new_password: 'short' } }),
      422,
    );
    expect(short.errors.map((e: { location: string }) => e.location)).toEqual(['body.new_password']);
    const missing = expectProblem(await call('POST', '/auth/password', { token: user.token, body: { extra: 1 } }), 422);
    expect(missing.errors.map((e: { location: string }) => e.location)).toEqual(
      expect.arrayContaining(['body.current_password', 'body.new_password', 'body.extra']),
    );
    expectProblem(
      await call('POST', '/auth/password', { token: user.token, rawBody: '{not json', headers: { 'content-type': 'application/json' } }),
      400,
    );
    expectProblem(await call('POST', '/auth/password', { body: { current_password: PASSWORD, new_password: NEW_PASSWORD } }), 401);
    const apiToken = await call('POST', '/api-tokens', { token: user.token, body: { name: 'robot' } });
    expectProblem(
      await call('POST', '/auth/password', {
        token: apiToken.body.token,
        body: { current_password: PASSWORD, new_password: NEW_PASSWORD },
      }),
      403,
      'session_required',
    );
    expectProblem(
      await call('POST', '/auth/password', {
        token: await workspaceToken(user),
        body: { current_password: PASSWORD, new_password: NEW_PASSWORD },
      }),
      403,
      'workspace_token_forbidden',
    );
    // Nothing changed.
    expect((await call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } })).status).toBe(200);
  });
});

describe('security: token answers, API token mail, limits per client address', () => {
  it('sends Cache-Control: no-store on every answer carrying a token or grant', async () => {
    const email = uniqueEmail();
    const registered = await call('POST', '/auth/register', { body: { email, password: PASSWORD } });
    const login = await call('POST', '/auth/login', { body: { email, password: PASSWORD } });
    const refreshed = await call('POST', '/auth/refresh', { body: { refresh_token: login.body.refresh_token } });
    const reauth = await call('POST', '/auth/reauth', { token: registered.body.access_token, body: { password: PASSWORD } });
    const apiToken = await call('POST', '/api-tokens', { token: registered.body.access_token, body: { name: 'cache test' } });
    for (const [status, response] of [
      [201, registered],
      [200, login],
      [200, refreshed],
      [200, reauth],
      [201, apiToken],
    ] as const) {
      expect(response.status).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('mails the user when an API token is created, naming it', async () => {
    const user = await registerUser();
    const name = `deploy-bot-${randomUUID().slice(0, 8)}`;
    expect((await call('POST', '/api-tokens', { token: user.token, body: { name } })).status).toBe(201);
    const mail = await waitForMail(user.email, (m) => m.text.includes(name));
    expect(mail.subject).toMatch(/API token/i);
  });

  it('limits registrations per client address (429 with Retry-After), other addresses unaffected', async () => {
    const ip = randomIp();
    for (let i = 0; i < 20; i++) {
      // A taken email answers 409 without hashing; it still counts as an attempt from this address.
      expect((await call('POST', '/auth/register', { ip, body: { email: uniqueEmail('by-ip'), password: PASSWORD } })).status).toBe(201);
    }
    const limited = await call('POST', '/auth/register', { ip, body: { email: uniqueEmail('by-ip'), password: PASSWORD } });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('POST', '/auth/register', { body: { email: uniqueEmail('elsewhere'), password: PASSWORD } })).status).toBe(201);
  }, 60_000);

  it('answers a taken email or username with 409, never a hash of the password (quickly)', async () => {
    const user = await registerUser({ username: `taken_${randomUUID().slice(0, 8)}` });
    const started = performance.now();
    expectProblem(await call('POST', '/auth/register', { body: { email: user.email, password: PASSWORD } }), 409, 'email_taken');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('limits requests with failing bearer tokens per client address: 429 past 100 a minute, valid tokens never refused', async () => {
    const user = await registerUser();
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await call('GET', '/auth/me', { ip, token: `not-a-jwt-${i}` })).status);
    expect(statuses).toEqual(Array(100).fill(401));
    const limited = await call('GET', '/auth/me', { ip, token: 'still-not-a-jwt' });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expectProblem(await call('GET', '/auth/me', { ip, token: 'spk_unknown-api-token' }), 429, 'rate_limited');
    // The same address with a valid token, and another address with a bad one, are unaffected.
    expect((await call('GET', '/auth/me', { ip, token: user.token })).status).toBe(200);
    expectProblem(await call('GET', '/auth/me', { token: 'not-a-jwt' }), 401);
  });

  it('serves /docs with a CSP and frame denial', async () => {
    const docs = await fetch(`${process.env.E2E_BASE_URL}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(docs.headers.get('x-frame-options')).toBe('DENY');
    await docs.text();
  });
});
