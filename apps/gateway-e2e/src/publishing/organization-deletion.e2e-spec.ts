import { describe, expect, it } from '@jest/globals';
import { call, eventually, expectProblem } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { createTenant, createWorkspace } from '../support/tenancy.js';

describe('publishing: a deleted organization leaves nothing behind', () => {
  const db = testDatabase();

  /** Rows of every publishing table that has a workspace_id column, for these workspaces: any table added later is checked too. */
  async function rowsLeft(workspaceIds: string[]): Promise<Record<string, number>> {
    const { rows: tables } = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'publishing' AND column_name = 'workspace_id'
       ORDER BY table_name`,
    );
    const counts: Record<string, number> = {};
    for (const { table_name } of tables) {
      const { rows } = await db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM publishing."${table_name}" WHERE workspace_id = ANY($1::uuid[])`,
        [workspaceIds],
      );
      counts[table_name] = rows[0].count;
    }
    return counts;
  }

  it(
    "purges every workspace's accounts (and whatever else publishing keeps) " + 'through the durable event; other tenants keep theirs',
    async () => {
      const tenant = await createTenant();
      const second = await createWorkspace(tenant.owner, tenant.organizationId, 'Second');
      const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
      const other = await connectSandboxAccount(tenant.owner.token, second);
      const set = await call('POST', '/social-sets', {
        token: tenant.owner.token,
        body: { workspace_id: tenant.workspaceId, name: 'Everything', is_default: true, accounts: [{ social_account_id: account.id }] },
      });
      expect(set.status).toBe(201);
      const profile = await call('POST', '/voice-profiles', {
        token: tenant.owner.token,
        body: { workspace_id: second, name: 'Warm', definition: { traits: ['warm'] } },
      });
      expect(profile.status).toBe(201);
      expect(
        (
          await call('PUT', `/voice-profiles/${profile.body.id}/assignments`, {
            token: tenant.owner.token,
            body: { account_ids: [other.id] },
          })
        ).status,
      ).toBe(200);
      const publication = await call('POST', '/publications', {
        token: tenant.owner.token,
        headers: { 'idempotency-key': 'purge-me' },
        body: { workspace_id: second, content_profile: 'thread', title: 'Gone soon', source_text: '' },
      });
      expect(publication.status).toBe(201);
      expect(
        (
          await call('PATCH', `/publications/${publication.body.id}`, {
            token: tenant.owner.token,
            body: { expected_revision: 1, segments: [{ body: 'a' }] },
          })
        ).status,
      ).toBe(200);
      const bystander = await createTenant();
      const kept = await connectSandboxAccount(bystander.owner.token, bystander.workspaceId);

      const before = await rowsLeft([tenant.workspaceId, second]);
      expect(before).toMatchObject({ social_accounts: 2, social_sets: 1, voice_profiles: 1, voice_profile_assignments: 1 });
      expect(before).toMatchObject({ publications: 1, idempotency_keys: 1 });

      expect((await call('DELETE', `/organizations/${tenant.organizationId}`, { token: tenant.owner.token })).status).toBe(202);
      await eventually(async () => {
        const left = await rowsLeft([tenant.workspaceId, second]);
        expect(Object.values(left).every((count) => count === 0)).toBe(true);
      }, 15_000);
      expectProblem(await call('GET', `/social-accounts/${account.id}`, { token: tenant.owner.token }), 404);
      // Segments have no workspace_id of their own: they went with their publication.
      expect(
        (await db.query(`SELECT count(*)::int AS n FROM publishing.publication_segments WHERE publication_id = $1`, [publication.body.id]))
          .rows[0].n,
      ).toBe(0);
      expect((await call('GET', `/social-accounts/${kept.id}`, { token: bystander.owner.token })).status).toBe(200);
    },
  );
});
