import { afterEach, describe, expect, it } from '@jest/globals';
import { call, eventually, expectProblem } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { type ServiceReplica, startServiceReplica } from '../support/service-replica.js';
import { createTenant } from '../support/tenancy.js';
import { newAsset, newProject } from './video-fixtures.js';

describe('creative: the trash sweep with two replicas', () => {
  const db = testDatabase();
  let replica: ServiceReplica | undefined;
  afterEach(async () => {
    await replica?.stop();
    replica = undefined;
  });

  it('purges every expired project once: each asset is announced to media exactly once', async () => {
    // A second creative replica on the stack's database and NATS, sweeping every second.
    replica = await startServiceReplica('creative', { CREATIVE_SWEEP_INTERVAL_MS: '1000' });
    const { owner, workspaceId } = await createTenant();
    const projects = [];
    const assets: string[] = [];
    for (let i = 0; i < 12; i++) {
      const project = await newProject(owner.token, workspaceId, `Old ${i}`);
      for (let a = 0; a < 2; a++) assets.push((await newAsset(owner.token, project.id, workspaceId)).id);
      expect((await call('DELETE', `/video-projects/${project.id}`, { token: owner.token })).status).toBe(200);
      projects.push(project);
    }
    // All expire at once: both replicas find them on their next sweep.
    await db.query(`UPDATE creative.video_projects SET retention_expires_at = now() - interval '1 second' WHERE workspace_id = $1`, [
      workspaceId,
    ]);
    await eventually(async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM creative.video_projects WHERE workspace_id = $1`, [workspaceId]);
      expect(rows[0].n).toBe(0);
    }, 15_000);
    for (const project of projects)
      expectProblem(await call('GET', `/video-projects/${project.id}`, { token: owner.token }), 404, 'not_found');
    const { rows } = await db.query(
      `SELECT payload->>'project_asset_id' AS asset, count(*)::int AS n FROM creative.outbox_events
        WHERE subject = 'durable.creative.project-asset.deleted' AND payload->>'workspace_id' = $1 GROUP BY 1`,
      [workspaceId],
    );
    expect(new Map(rows.map((row: { asset: string; n: number }) => [row.asset, row.n]))).toEqual(new Map(assets.map((id) => [id, 1])));
  }, 90_000);
});
