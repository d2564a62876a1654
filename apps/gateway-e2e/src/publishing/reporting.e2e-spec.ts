import { beforeAll, describe, expect, it } from '@jest/globals';
import { v7 as uuidv7 } from 'uuid';
import { call, TestUser } from '../support/api.js';
import { adminCall, registerAdmin } from '../support/admin.js';
import { testDatabase } from '../support/database.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { createTenant } from '../support/tenancy.js';

/** What publishing reports to other services: usage for the admin directory and overview, pending work for E10. */
describe('publishing: usage and pending work reported to admin and accounts', () => {
  const db = testDatabase();
  let admin: TestUser;

  beforeAll(async () => {
    admin = await registerAdmin();
  });

  const createPublication = async (token: string, workspaceId: string): Promise<string> => {
    const response = await call('POST', '/publications', {
      token,
      body: { workspace_id: workspaceId, content_profile: 'short_text', title: 'Counted', source_text: 'Hello' },
    });
    expect(response.status).toBe(201);
    return response.body.id;
  };

  it("E9 shows each user's publications and connected accounts; E7 counts every publication", async () => {
    const before = (await adminCall('GET', '/admin/overview', { token: admin.token })).body;
    const { owner, workspaceId } = await createTenant();
    await connectSandboxAccount(owner.token, workspaceId);
    await createPublication(owner.token, workspaceId);
    await createPublication(owner.token, workspaceId);

    const page = await adminCall('GET', `/admin/users?search=${encodeURIComponent(owner.email)}`, { token: admin.token });
    expect(page.body).toMatchObject({ total: 1, usage_complete: true });
    expect(page.body.users[0]).toMatchObject({ id: owner.id, publication_count: 2, social_account_count: 1, workspace_count: 1 });

    const after = (await adminCall('GET', '/admin/overview', { token: admin.token })).body;
    expect(after.usage_complete).toBe(true);
    expect(after.total_publications).toBeGreaterThanOrEqual(before.total_publications + 2);
    expect(after.publication_trend).toHaveLength(30);
    expect(after.published_last_30_days).toBe(after.publication_trend.reduce((sum: number, p: { value: number }) => sum + p.value, 0));
  });

  it('E10 counts scheduled publications as pending jobs and renditions being published as blocking provider writes', async () => {
    const tenant = await createTenant();
    const preview = () => call('GET', `/organizations/${tenant.organizationId}/deletion-preview`, { token: tenant.owner.token });
    const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const publicationId = await createPublication(tenant.owner.token, tenant.workspaceId);
    expect((await preview()).body).toMatchObject({
      pending_work: { pending_jobs: 0, pending_cleanup_jobs: 0, pending_provider_writes: 0 },
      blockers: [],
    });

    // Scheduling arrives with a later issue: the states it will write are set here directly.
    await db.query(`UPDATE publishing.publications SET status = 'publishing' WHERE id = $1`, [publicationId]);
    await db.query(
      `INSERT INTO publishing.renditions (id, publication_id, social_account_id, platform, target_key, status, created_at, updated_at)
       VALUES ($1, $2, $3, 'sandbox', $4, 'publishing', now(), now())`,
      [uuidv7(), publicationId, account.id, `sandbox:${account.id}`],
    );
    const busy = (await preview()).body;
    expect(busy.pending_work).toEqual({ pending_jobs: 1, pending_cleanup_jobs: 0, pending_provider_writes: 1 });
    expect(busy.blockers).toEqual([expect.objectContaining({ code: 'pending_external_writes' })]);
    expect((await call('DELETE', `/organizations/${tenant.organizationId}`, { token: tenant.owner.token })).status).toBe(409);
  });
});
