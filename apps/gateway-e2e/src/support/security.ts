import { expect } from '@jest/globals';
import { call, TestUser } from './api.js';

/** A fresh reauth_grant for the user's session (POST /auth/reauth with the right password). */
export async function reauthGrant(user: TestUser): Promise<string> {
  const response = await call('POST', '/auth/reauth', { token: user.token, body: { password: user.password } });
  expect(response.status).toBe(200);
  return response.body.reauth_grant as string;
}
