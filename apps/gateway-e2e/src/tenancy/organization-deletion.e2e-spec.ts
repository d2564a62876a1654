import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { testDatabase } from '../support/database.js';
import { call, eventually, expectProblem, registerUser } from '../support/api.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, createWorkspace, joinWorkspace } from '../support/tenancy.js';

describe('tenancy: organization deletion (E10 preview, DELETE through a durable event)', () => {
  const db = testDatabase();

  it('E10 shows the owner every workspace, pending work counted live, the fixed lists and no blockers', async () => {
    const tenant = await createTenant();
    const second = await createWorkspace(tenant.owner, tenant.organizationId, 'Second');
    const preview = await call('GET', `/organizations/${tenant.organizationId}/deletion-preview`, { token: tenant.owner.token });
    expect(preview.status).toBe(200);
    await expectMatchesOwnSchema(preview.body, 'OrganizationDeletionPreview');
    expect(preview.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/OrganizationDeletionPreview\.json$/),
      organization_id: tenant.organizationId,
      organization_name: 'Acme',
      workspaces: [
        { workspace_id: tenant.workspaceId, workspace_name: 'Main' },
        { workspace_id: second, workspace_name: 'Second' },
      ],
      billing_state: 'none',
      pending_work: { pending_jobs: 0, pending_cleanup_jobs: 0, pending_provider_writes: 0 },
      access_effects: ['organization_memberships', 'workspace_memberships', 'organization_credentials'],
      retained: ['required_audit_evidence'],
      irreversible_loss: ['workspaces', 'content', 'connected_accounts', 'media', 'settings'],
      blockers: [],
      recovery_possible: false,
    });
  });

  it('is for the owner only: members get 403, everyone else 404, for the preview and the deletion', async () => {
    const tenant = await createTenant();
    const admin = await joinWorkspace(tenant.owner, tenant.workspaceId, 'admin');
    await call('PATCH', `/organizations/${tenant.organizationId}/members/${admin.id}`, {
      token: tenant.owner.token,
      body: { role: 'admin' },
    });
    const stranger = await registerUser();
    const org = `/organizations/${tenant.organizationId}`;
    expectProblem(await call('GET', `${org}/deletion-preview`, { token: admin.token }), 403, 'owner_only');
    expectProblem(await call('DELETE', org, { token: admin.token }), 403, 'owner_only');
    expectProblem(await call('GET', `${org}/deletion-preview`, { token: stranger.token }), 404, 'not_found');
    expectProblem(await call('DELETE', org, { token: stranger.token }), 404, 'not_found');
    expectProblem(await call('GET', `/organizations/${randomUUID()}/deletion-preview`, { token: tenant.owner.token }), 404);
    expect((await call('GET', org, { token: tenant.owner.token })).status).toBe(200);
  });

  it('refuses (409 deletion_blocked, with the blockers) while cleanup is pending, and proceeds once it is done', async () => {
    const tenant = await createTenant();
    const org = `/organizations/${tenant.organizationId}`;
    // An undelivered purge event for this workspace, held so the relay cannot send it yet.
    const eventId = randomUUID();
    await db.query(`INSERT INTO accounts.outbox_events (id, subject, payload) VALUES ($1, 'durable.tenancy.test-cleanup', $2)`, [
      eventId,
      JSON.stringify({ workspace_ids: [tenant.workspaceId] }),
    ]);
    const holder = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM accounts.outbox_events WHERE id = $1 FOR UPDATE', [eventId]);
      const preview = await call('GET', `${org}/deletion-preview`, { token: tenant.owner.token });
      expect(preview.body.pending_work.pending_cleanup_jobs).toBe(1);
      expect(preview.body.blockers).toEqual([{ code: 'pending_cleanup', message: expect.any(String) }]);
      const refused = expectProblem(await call('DELETE', org, { token: tenant.owner.token }), 409, 'deletion_blocked');
      expect(refused.blockers).toEqual(preview.body.blockers);
      expect((await call('GET', org, { token: tenant.owner.token })).status).toBe(200);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    await eventually(async () => {
      const preview = await call('GET', `${org}/deletion-preview`, { token: tenant.owner.token });
      expect(preview.body.blockers).toEqual([]);
    }, 15_000);
    expect((await call('DELETE', org, { token: tenant.owner.token })).status).toBe(202);
  });

  it('deletes (202): the organization, its workspaces and memberships go, and every service purges its data', async () => {
    const tenant = await createTenant();
    const editor = await joinWorkspace(tenant.owner, tenant.workspaceId, 'editor');
    const inHour = new Date(Date.now() + 3_600_000).toISOString();
    const mute = await call('POST', '/notifications/mutes', {
      token: editor.token,
      body: { workspace_id: tenant.workspaceId, starts_at: new Date().toISOString(), ends_at: inHour },
    });
    expect(mute.status).toBe(201);

    const deleted = await call('DELETE', `/organizations/${tenant.organizationId}`, { token: tenant.owner.token });
    expect(deleted.status).toBe(202);
    await expectMatchesOwnSchema(deleted.body, 'OrganizationDeletion');
    expect(deleted.body).toEqual({
      $schema: expect.any(String),
      organization_id: tenant.organizationId,
      workspace_ids: [tenant.workspaceId],
      deleted_at: expect.stringMatching(/Z$/),
    });

    expectProblem(await call('GET', `/organizations/${tenant.organizationId}`, { token: tenant.owner.token }), 404);
    expectProblem(await call('DELETE', `/organizations/${tenant.organizationId}`, { token: tenant.owner.token }), 404);
    expectProblem(await call('GET', `/workspaces/${tenant.workspaceId}`, { token: editor.token }), 404);
    expect((await call('GET', '/workspaces', { token: editor.token })).body.workspaces).toEqual([]);
    expect((await call('GET', '/organizations', { token: editor.token })).body.organizations).toEqual([]);

    // Notifications hears the durable event and purges the deleted workspace's mutes.
    await eventually(async () => {
      const preferences = await call('GET', '/notifications/preferences', { token: editor.token });
      expect(preferences.body.mutes).toEqual([]);
    }, 15_000);
    const { rows } = await db.query("SELECT published_at FROM accounts.outbox_events WHERE payload->>'organization_id' = $1", [
      tenant.organizationId,
    ]);
    expect(rows).toEqual([{ published_at: expect.any(Date) }]);
  });
});
