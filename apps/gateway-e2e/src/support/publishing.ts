import { expect } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call } from './api.js';
import type { TestDatabase } from './database.js';

/** Connects an account of the built-in sandbox network to the workspace and returns it (201). */
export async function connectSandboxAccount(
  token: string,
  workspaceId: string,
  username?: string,
): Promise<{ id: string; username: string }> {
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

/**
 * A network account stored as its connection flow would leave it, without a grant: for suites that only
 * render, check rules or schedule for a network (nothing is delivered to it). Its id.
 */
export async function insertSocialAccount(
  db: TestDatabase,
  workspaceId: string,
  userId: string,
  platform: string,
  status = 'active',
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO publishing.social_accounts (id, workspace_id, platform, external_id, username, status, connected_by, created_at,
       updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now())`,
    [id, workspaceId, platform, `ext-${id}`, `${platform}_user`, status, userId],
  );
  return id;
}
