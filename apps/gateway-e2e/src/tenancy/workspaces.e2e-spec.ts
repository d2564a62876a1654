import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, registerUser } from '../support/api.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createOrganization, createTenant, createWorkspace, joinWorkspace } from '../support/tenancy.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('tenancy: workspaces', () => {
  it('creates a workspace (201, Location) whose creator is admin; reads, lists, renames it', async () => {
    const owner = await registerUser();
    const organizationId = await createOrganization(owner);
    const created = await call('POST', '/workspaces', { token: owner.token, body: { organization_id: organizationId, name: 'Brand' } });
    expect(created.status).toBe(201);
    await expectMatchesOwnSchema(created.body, 'Workspace');
    expect(created.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/Workspace\.json$/),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      organization_id: organizationId,
      name: 'Brand',
      role: 'admin',
      created_at: expect.stringMatching(ISO),
    });
    expect(created.headers.get('location')).toBe(`/workspaces/${created.body.id}`);
    expect((await call('GET', `/workspaces/${created.body.id}`, { token: owner.token })).body).toEqual(created.body);

    const listed = await call('GET', `/workspaces?organization_id=${organizationId}`, { token: owner.token });
    expect(listed.status).toBe(200);
    await expectMatchesOwnSchema(listed.body, 'WorkspaceList');
    const { $schema: _s, ...item } = created.body;
    expect(listed.body.workspaces).toEqual([item]);
    // An organization named in the query that the caller is not in is 403, whether or not it exists.
    expectProblem(await call('GET', `/workspaces?organization_id=${randomUUID()}`, { token: owner.token }), 403, 'organization_forbidden');
    const stranger = await registerUser();
    expectProblem(
      await call('GET', `/workspaces?organization_id=${organizationId}`, { token: stranger.token }),
      403,
      'organization_forbidden',
    );
    expectProblem(await call('GET', '/workspaces?organization_id=nope', { token: owner.token }), 422);

    const renamed = await call('PATCH', `/workspaces/${created.body.id}`, { token: owner.token, body: { name: 'Brand EU' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created.body, name: 'Brand EU' });

    const members = await call('GET', `/workspaces/${created.body.id}/members`, { token: owner.token });
    await expectMatchesOwnSchema(members.body, 'WorkspaceMemberList');
    expect(members.body.members).toEqual([
      { user_id: owner.id, email: owner.email, display_name: expect.any(String), role: 'admin', joined_at: expect.stringMatching(ISO) },
    ]);
  });

  it('refuses duplicate names in one organization (409, case-insensitive) and bad input (422)', async () => {
    const tenant = await createTenant();
    expectProblem(
      await call('POST', '/workspaces', { token: tenant.owner.token, body: { organization_id: tenant.organizationId, name: 'MAIN' } }),
      409,
      'workspace_name_taken',
    );
    const bad = expectProblem(
      await call('POST', '/workspaces', { token: tenant.owner.token, body: { organization_id: 'x', name: '' } }),
      422,
    );
    expect(bad.errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.name', 'body.organization_id']);
    expectProblem(
      await call('PATCH', `/workspaces/${tenant.workspaceId}`, { token: tenant.owner.token, body: { name: 'x'.repeat(121) } }),
      422,
    );
    const second = await createWorkspace(tenant.owner, tenant.organizationId, 'Second');
    expectProblem(
      await call('PATCH', `/workspaces/${second}`, { token: tenant.owner.token, body: { name: 'main' } }),
      409,
      'workspace_name_taken',
    );
    // Ten racing creations of one name: exactly one wins.
    const racing = await Promise.all(
      Array.from({ length: 10 }, () =>
        call('POST', '/workspaces', { token: tenant.owner.token, body: { organization_id: tenant.organizationId, name: 'Race' } }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });

  it('enforces roles: viewers read only, editors cannot manage members or invitations', async () => {
    const tenant = await createTenant();
    const viewer = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
    const editor = await joinWorkspace(tenant.owner, tenant.workspaceId, 'editor');
    const ws = `/workspaces/${tenant.workspaceId}`;
    expect((await call('GET', ws, { token: viewer.token })).body.role).toBe('viewer');
    expectProblem(await call('PATCH', ws, { token: viewer.token, body: { name: 'Mine' } }), 403, 'insufficient_role');
    expectProblem(await call('PATCH', ws, { token: editor.token, body: { name: 'Mine' } }), 403, 'insufficient_role');
    expectProblem(
      await call('PATCH', `${ws}/members/${viewer.id}`, { token: editor.token, body: { role: 'admin' } }),
      403,
      'insufficient_role',
    );
    expectProblem(await call('DELETE', `${ws}/members/${viewer.id}`, { token: editor.token }), 403, 'insufficient_role');
    expectProblem(await call('GET', `${ws}/invitations`, { token: editor.token }), 403, 'insufficient_role');
    expectProblem(await call('POST', `${ws}/invitations`, { token: editor.token, body: { email: 'x@example.com', role: 'viewer' } }), 403);

    const changed = await call('PATCH', `${ws}/members/${viewer.id}`, { token: tenant.owner.token, body: { role: 'editor' } });
    expect(changed.status).toBe(200);
    await expectMatchesOwnSchema(changed.body, 'WorkspaceMember');
    expect(changed.body).toEqual(expect.objectContaining({ user_id: viewer.id, role: 'editor' }));
    // The access cache of every service drops the old role at once.
    expect((await call('GET', ws, { token: viewer.token })).body.role).toBe('editor');
    expectProblem(await call('PATCH', `${ws}/members/${viewer.id}`, { token: tenant.owner.token, body: { role: 'owner' } }), 422);
    expectProblem(await call('PATCH', `${ws}/members/${randomUUID()}`, { token: tenant.owner.token, body: { role: 'viewer' } }), 404);

    // Anyone may leave, whatever case their id is written in; a removed member sees nothing any more.
    expect((await call('DELETE', `${ws}/members/${editor.id.toUpperCase()}`, { token: editor.token })).status).toBe(204);
    expectProblem(await call('GET', ws, { token: editor.token }), 404);
    expect((await call('DELETE', `${ws}/members/${viewer.id}`, { token: tenant.owner.token })).status).toBe(204);
    expectProblem(await call('GET', ws, { token: viewer.token }), 404);
  });

  it('hides a workspace and its members from another tenant (404) and nothing changes', async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const ws = `/workspaces/${tenant.workspaceId}`;
    await expectTenantIsolation({
      url: ws,
      ownerToken: tenant.owner.token,
      intruderToken: other.owner.token,
      ownerView: [ws, `${ws}/members`, `${ws}/invitations`],
      attempts: [
        { method: 'PATCH', body: { name: 'Hijacked' } },
        { method: 'GET', path: `${ws}/members` },
        { method: 'PATCH', path: `${ws}/members/${tenant.owner.id}`, body: { role: 'viewer' } },
        { method: 'DELETE', path: `${ws}/members/${tenant.owner.id}` },
        { method: 'GET', path: `${ws}/invitations` },
        { method: 'POST', path: `${ws}/invitations`, body: { email: 'spy@example.com', role: 'admin' } },
      ],
    });
    // Naming the foreign workspace's organization in a body is 403, not 404.
    expectProblem(
      await call('POST', '/workspaces', { token: other.owner.token, body: { organization_id: tenant.organizationId, name: 'x' } }),
      403,
    );
    // And in another service: notifications' workspace mutes ask the same access helper.
    const inHour = new Date(Date.now() + 3_600_000).toISOString();
    expectProblem(
      await call('POST', '/notifications/mutes', {
        token: other.owner.token,
        body: { workspace_id: tenant.workspaceId, starts_at: new Date().toISOString(), ends_at: inHour },
      }),
      403,
      'workspace_forbidden',
    );
    const own = await call('POST', '/notifications/mutes', {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId, starts_at: new Date().toISOString(), ends_at: inHour },
    });
    expect(own.status).toBe(201);
    expect(own.body).toEqual(expect.objectContaining({ scope: 'workspace', workspace_id: tenant.workspaceId, workspace_name: 'Main' }));
  });
});
