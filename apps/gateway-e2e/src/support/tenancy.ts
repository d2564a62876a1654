import { expect } from '@jest/globals';
import { call, registerUser, TestUser } from './api.js';

export interface Tenant {
  owner: TestUser;
  organizationId: string;
  workspaceId: string;
}

export async function createOrganization(user: TestUser, name = 'Acme'): Promise<string> {
  const response = await call('POST', '/organizations', { token: user.token, body: { name } });
  expect(response.status).toBe(201);
  return response.body.id;
}

export async function createWorkspace(user: TestUser, organizationId: string, name = `Workspace ${Math.random()}`): Promise<string> {
  const response = await call('POST', '/workspaces', { token: user.token, body: { organization_id: organizationId, name } });
  expect(response.status).toBe(201);
  return response.body.id;
}

/** A new user owning an organization with one workspace: one tenant. */
export async function createTenant(): Promise<Tenant> {
  const owner = await registerUser();
  const organizationId = await createOrganization(owner);
  const workspaceId = await createWorkspace(owner, organizationId, 'Main');
  return { owner, organizationId, workspaceId };
}

/** Brings a user into a workspace the way a person would: invited by an admin, accepting the link. */
export async function joinWorkspace(
  admin: TestUser,
  workspaceId: string,
  role: 'admin' | 'editor' | 'viewer',
  user?: TestUser,
): Promise<TestUser> {
  const member = user ?? (await registerUser());
  const invited = await call('POST', `/workspaces/${workspaceId}/invitations`, { token: admin.token, body: { email: member.email, role } });
  expect(invited.status).toBe(201);
  const accepted = await call('POST', '/workspace-invitations/accept', {
    token: member.token,
    body: { token: secretOf(invited.body.accept_url) },
  });
  expect(accepted.status).toBe(200);
  return member;
}

export const secretOf = (acceptUrl: string): string => new URL(acceptUrl).searchParams.get('token') ?? '';
