import { expect } from '@jest/globals';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { ApiResponse, call, CallOptions, PASSWORD, TestUser, uniqueEmail } from './api.js';

/** Email prefix of promoted admins, so a suite can tell them from the instance's first user. */
export const PROMOTED_ADMIN_LABEL = 'promoted-admin';

/**
 * Instance administrators for the e2e suites. The first user of a fresh stack
 * becomes admin, but every suite shares one stack and their order is not
 * fixed, so a suite registers an ordinary user, promotes it directly in the
 * accounts schema (E2E_DATABASE_URL), and signs in again: the new access token
 * carries `adm: true` like any admin's.
 */
export async function withDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

export async function registerAdmin(): Promise<TestUser> {
  const email = uniqueEmail(PROMOTED_ADMIN_LABEL);
  const registered = await call('POST', '/auth/register', { body: { email, password: PASSWORD } });
  expect(registered.status).toBe(201);
  const user = { email, password: PASSWORD, id: registered.body.user.id as string };
  await withDatabase((db) => db.query(`UPDATE accounts.users SET is_admin = true WHERE id = $1`, [user.id]));
  const login = await call('POST', '/auth/login', { body: { email: user.email, password: user.password } });
  expect(login.status).toBe(200);
  expect(login.body.user.is_admin).toBe(true);
  return { ...user, token: login.body.access_token, refreshToken: login.body.refresh_token };
}

/** A workspace-bound API token of `user` (stored as accounts stores them: SHA-256 only). */
export async function workspaceToken(user: TestUser): Promise<string> {
  const token = `spk_${randomBytes(32).toString('base64url')}`;
  await withDatabase((db) =>
    db.query(
      `INSERT INTO accounts.api_tokens (id, user_id, name, token_hash, workspace_id, created_at) VALUES ($1, $2, 'ws', $3, $4, now())`,
      [randomUUID(), user.id, createHash('sha256').update(token).digest('hex'), randomUUID()],
    ),
  );
  return token;
}

/** Every admin answer a suite received, so it can prove no secret it sent ever came back. */
const seen: string[] = [];

export async function adminCall<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const response = await call<T>(method, path, options);
  seen.push(`${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${JSON.stringify(response.body)}`);
  return response;
}

export function expectNoSecretsInAnswers(secrets: string[]) {
  expect(seen.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    const leaks = seen.filter((answer) => answer.includes(secret));
    expect({ secret, leaks }).toEqual({ secret, leaks: [] });
  }
}

export { locations } from './api.js';
