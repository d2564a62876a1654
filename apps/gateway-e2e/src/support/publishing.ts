import { expect } from '@jest/globals';
import { call } from './api.js';

/** Connects an account of the built-in sandbox network to the workspace and returns it (201). */
export async function connectSandboxAccount(token: string, workspaceId: string, username?: string): Promise<{ id: string; username: string }> {
  const response = await call('POST', '/social-accounts/connect', {
    token,
    body: { workspace_id: workspaceId, provider: 'sandbox', ...(username ? { username } : {}) },
  });
  expect(response.status).toBe(201);
  return response.body;
}
