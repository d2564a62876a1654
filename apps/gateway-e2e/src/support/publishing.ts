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

/** Creates a draft publication in the workspace (E15, 201) and returns it. */
export async function createPublication(token: string, workspaceId: string, extra: Record<string, unknown> = {}): Promise<any> {
  const response = await call('POST', '/publications', {
    token,
    body: { workspace_id: workspaceId, content_profile: 'short_text', title: 'Hello', source_text: 'An idea worth sharing', ...extra },
  });
  expect(response.status).toBe(201);
  return response.body;
}
