import { afterEach, describe, expect, it } from '@jest/globals';
import { freePort, REPO_ROOT, startProcess, stopProcess, waitFor } from '@social/testing';
import type { ChildProcess } from 'node:child_process';
import { call, eventually, expectProblem } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { createTenant } from '../support/tenancy.js';
import { newAsset, newProject } from './video-fixtures.js';

/** A second creative replica on the stack's database and NATS, sweeping every 200 ms. */
async function startCreativeReplica(): Promise<ChildProcess> {
  const healthPort = await freePort();
  const child = startProcess(process.execPath, ['apps/creative/dist/main.js'], {
    cwd: REPO_ROOT,
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      NATS_URL: process.env.E2E_NATS_URL_IN_USE,
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      SECRETS_KEY: process.env.E2E_SECRETS_KEY,
      HEALTH_PORT: String(healthPort),
      LOG_LEVEL: 'warn',
      CREATIVE_SWEEP_INTERVAL_MS: '1000',
    },
  });
  try {
    await waitFor('a second creative replica', async () => (await fetch(`http://127.0.0.1:${healthPort}/`)).status === 200, 30_000);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return child;
}

describe('creative: the trash sweep with two replicas', () => {
  const db = testDatabase();
  let replica: ChildProcess | undefined;
  afterEach(async () => {
    if (replica) await stopProcess(replica);
    replica = undefined;
  });

  it('purges every expired project once: each asset is announced to media exactly once', async () => {
    replica = await startCreativeReplica();
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
    await db.query(`UPDATE creative.video_projects SET retention_expires_at = now() - interval '1 second' WHERE workspace_id = $1`, [workspaceId]);
    await eventually(async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM creative.video_projects WHERE workspace_id = $1`, [workspaceId]);
      expect(rows[0].n).toBe(0);
    }, 15_000);
    for (const project of projects) expectProblem(await call('GET', `/video-projects/${project.id}`, { token: owner.token }), 404, 'not_found');
    const { rows } = await db.query(
      `SELECT payload->>'project_asset_id' AS asset, count(*)::int AS n FROM creative.outbox_events
        WHERE subject = 'durable.creative.project-asset.deleted' AND payload->>'workspace_id' = $1 GROUP BY 1`,
      [workspaceId],
    );
    expect(new Map(rows.map((row: { asset: string; n: number }) => [row.asset, row.n]))).toEqual(new Map(assets.map((id) => [id, 1])));
  }, 90_000);
});
