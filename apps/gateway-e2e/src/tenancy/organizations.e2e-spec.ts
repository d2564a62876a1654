import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, registerUser } from '../support/api.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createOrganization, createTenant, createWorkspace, joinWorkspace } from '../support/tenancy.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('tenancy: organizations', () => {
  it('creates an organization with the caller as owner (201, Location), lists and reads it', async () => {
    const user = await registerUser();
    const created = await call('POST', '/organizations', { token: user.token, body: { name: 'Acme Studio' } });
    expect(created.status).toBe(201);
    await expectMatchesOwnSchema(created.body, 'Organization');
    expect(created.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/Organization\.json$/),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Acme Studio',
      role: 'owner',
      created_at: expect.stringMatching(ISO),
    });
    expect(created.headers.get('location')).toBe(`/organizations/${created.body.id}`);

    const read = await call('GET', `/organizations/${created.body.id}`, { token: user.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const listed = await call('GET', '/organizations', { token: user.token });
    expect(listed.status).toBe(200);
    await expectMatchesOwnSchema(listed.body, 'OrganizationList');
    const { $schema: _s, ...item } = created.body;
    expect(listed.body.organizations).toEqual([item]);

    const members = await call('GET', `/organizations/${created.body.id}/members`, { token: user.token });
    expect(members.status).toBe(200);
    await expectMatchesOwnSchema(members.body, 'OrganizationMemberList');
    expect(members.body.members).toEqual([
      { user_id: user.id, email: user.email, display_name: expect.any(String), role: 'owner', joined_at: expect.stringMatching(ISO) },
    ]);
  });

  it('refuses bad input with 422 and the location of each problem', async () => {
    const user = await registerUser();
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(121) }, { name: 42 }, { name: 'ok', extra: true }]) {
      const problem = expectProblem(await call('POST', '/organizations', { token: user.token, body }), 422, 'validation_failed');
      expect(problem.errors[0].location).toMatch(/^body\.(name|extra)$/);
    }
    expectProblem(await call('GET', '/organizations/not-a-uuid', { token: user.token }), 404, 'not_found');
  });

  it('hides an organization from everyone who is not a member (404) and nothing changes', async () => {
    const tenant = await createTenant();
    const intruder = await registerUser();
    await expectTenantIsolation({
      url: `/organizations/${tenant.organizationId}`,
      ownerToken: tenant.owner.token,
      intruderToken: intruder.token,
      ownerView: [`/organizations/${tenant.organizationId}`, `/organizations/${tenant.organizationId}/members`],
      attempts: [
        { method: 'GET', path: `/organizations/${tenant.organizationId}/members` },
        { method: 'PATCH', path: `/organizations/${tenant.organizationId}/members/${tenant.owner.id}`, body: { role: 'member' } },
        { method: 'DELETE', path: `/organizations/${tenant.organizationId}/members/${tenant.owner.id}` },
      ],
    });
    expect((await call('GET', '/organizations', { token: intruder.token })).body.organizations).toEqual([]);
  });

  it('lets only the owner change roles; the owner’s own role is fixed', async () => {
    const tenant = await createTenant();
    const member = await joinWorkspace(tenant.owner, tenant.workspaceId, 'editor');
    const orgMembers = `/organizations/${tenant.organizationId}/members`;
    const listed = await call('GET', orgMembers, { token: member.token });
    expect(listed.body.members.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([
      [tenant.owner.id, 'owner'],
      [member.id, 'member'],
    ]);
    expectProblem(
      await call('PATCH', `${orgMembers}/${tenant.owner.id}`, { token: member.token, body: { role: 'member' } }),
      403,
      'insufficient_role',
    );
    const promoted = await call('PATCH', `${orgMembers}/${member.id}`, { token: tenant.owner.token, body: { role: 'admin' } });
    expect(promoted.status).toBe(200);
    await expectMatchesOwnSchema(promoted.body, 'OrganizationMember');
    expect(promoted.body).toEqual(expect.objectContaining({ user_id: member.id, email: member.email, role: 'admin' }));
    expectProblem(
      await call('PATCH', `${orgMembers}/${tenant.owner.id}`, { token: tenant.owner.token, body: { role: 'admin' } }),
      409,
      'owner_role_fixed',
    );
    expectProblem(await call('PATCH', `${orgMembers}/${member.id}`, { token: tenant.owner.token, body: { role: 'owner' } }), 422);
    expectProblem(await call('PATCH', `${orgMembers}/${randomUUID()}`, { token: tenant.owner.token, body: { role: 'admin' } }), 404);
    // An organization admin now acts as admin of every workspace in it, and may create workspaces.
    const workspace = await call('GET', `/workspaces/${tenant.workspaceId}`, { token: member.token });
    expect(workspace.body.role).toBe('admin');
    await createWorkspace(member, tenant.organizationId, 'Second');
  });

  it('removes members (also from the organization’s workspaces); the owner cannot leave', async () => {
    const tenant = await createTenant();
    const member = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
    const orgMembers = `/organizations/${tenant.organizationId}/members`;
    expectProblem(await call('DELETE', `${orgMembers}/${tenant.owner.id}`, { token: tenant.owner.token }), 409, 'owner_cannot_leave');
    expectProblem(await call('DELETE', `${orgMembers}/${tenant.owner.id}`, { token: member.token }), 409, 'owner_cannot_leave');
    expect((await call('DELETE', `${orgMembers}/${member.id}`, { token: tenant.owner.token })).status).toBe(204);
    expectProblem(await call('GET', `/workspaces/${tenant.workspaceId}`, { token: member.token }), 404);
    expectProblem(await call('GET', `/organizations/${tenant.organizationId}`, { token: member.token }), 404);
    expectProblem(await call('DELETE', `${orgMembers}/${member.id}`, { token: tenant.owner.token }), 404);
  });

  it('lets a member leave addressing themself in upper case; access caches drop them at once', async () => {
    const tenant = await createTenant();
    const member = await joinWorkspace(tenant.owner, tenant.workspaceId, 'editor');
    // Cached in the publishing service's access check before leaving.
    expect((await call('GET', `/social-accounts?workspace_id=${tenant.workspaceId}`, { token: member.token })).status).toBe(200);
    const left = await call('DELETE', `/organizations/${tenant.organizationId}/members/${member.id.toUpperCase()}`, {
      token: member.token,
    });
    expect(left.status).toBe(204);
    expectProblem(await call('GET', `/organizations/${tenant.organizationId}`, { token: member.token }), 404);
    expectProblem(
      await call('GET', `/social-accounts?workspace_id=${tenant.workspaceId}`, { token: member.token }),
      403,
      'workspace_forbidden',
    );
  });

  it('keeps the whole-answer lists small: 50 owned organizations, 100 workspaces per organization (409 beyond)', async () => {
    const user = await registerUser();
    const organizations = await Promise.all(Array.from({ length: 50 }, (_, i) => createOrganization(user, `Org ${i}`)));
    expectProblem(
      await call('POST', '/organizations', { token: user.token, body: { name: 'One too many' } }),
      409,
      'too_many_organizations',
    );
    expect((await call('GET', '/organizations', { token: user.token })).body.organizations).toHaveLength(50);
    await Promise.all(Array.from({ length: 100 }, (_, i) => createWorkspace(user, organizations[0], `Workspace ${i}`)));
    expectProblem(
      await call('POST', '/workspaces', { token: user.token, body: { organization_id: organizations[0], name: 'One too many' } }),
      409,
      'too_many_workspaces',
    );
    expect((await call('GET', `/workspaces?organization_id=${organizations[0]}`, { token: user.token })).body.workspaces).toHaveLength(100);
  });

  it('plain members cannot create workspaces (403); non-members get 403 for a named organization', async () => {
    const tenant = await createTenant();
    const member = await joinWorkspace(tenant.owner, tenant.workspaceId, 'admin');
    expectProblem(
      await call('POST', '/workspaces', { token: member.token, body: { organization_id: tenant.organizationId, name: 'Nope' } }),
      403,
      'insufficient_role',
    );
    const stranger = await registerUser();
    expectProblem(
      await call('POST', '/workspaces', { token: stranger.token, body: { organization_id: tenant.organizationId, name: 'Nope' } }),
      403,
      'organization_forbidden',
    );
    const other = await createOrganization(stranger);
    expect(other).not.toBe(tenant.organizationId);
  });
});
