import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sandboxAccountMetrics } from '@social/contracts';
import { randomUUID } from 'node:crypto';
import { call } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { analyticsUrl, analyticsWhen, InsightsReplica, sandboxExternalId, startInsightsReplica } from '../support/insights.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { createTenant } from '../support/tenancy.js';

/** Two insights replicas share the sync jobs through their leases: every job is claimed once, every account synced once. */
describe('insights: sync jobs across two replicas', () => {
  const db = testDatabase();
  let replica: InsightsReplica | undefined;

  beforeAll(async () => {
    replica = await startInsightsReplica();
  }, 40_000);

  afterAll(async () => {
    await replica?.stop();
  });

  it('a workspace refresh of 24 accounts runs each account job once and stores one snapshot each', async () => {
    const tenant = await createTenant();
    const names = Array.from({ length: 24 }, () => `twin_${randomUUID().slice(0, 8)}`);
    const accounts = [];
    for (const name of names) accounts.push(await connectSandboxAccount(tenant.owner.token, tenant.workspaceId, name));
    expect(
      (await call('POST', '/analytics/refresh', { token: tenant.owner.token, body: { workspace_id: tenant.workspaceId } })).status,
    ).toBe(202);
    const body = await analyticsWhen(
      tenant.owner.token,
      analyticsUrl(tenant.workspaceId),
      (o) => o.accounts.length === 24 && o.accounts.every((a: any) => a.status === 'ok'),
      30_000,
    );
    for (const [index, account] of accounts.entries()) {
      expect(body.accounts.find((a: any) => a.id === account.id).metrics).toEqual(sandboxAccountMetrics(sandboxExternalId(names[index])));
    }
    const jobs = await db.query(
      `SELECT state, attempts FROM insights.sync_jobs WHERE kind = 'account_metrics' AND account_id = ANY($1::uuid[])`,
      [accounts.map((a) => a.id)],
    );
    expect(jobs.rows).toHaveLength(24);
    expect(jobs.rows.every((row: any) => row.state === 'done' && row.attempts === 1)).toBe(true);
    const snapshots = await db.query(`SELECT count(*)::int AS n FROM insights.account_snapshots WHERE account_id = ANY($1::uuid[])`, [
      accounts.map((a) => a.id),
    ]);
    expect(snapshots.rows[0].n).toBe(24);
  });
});
