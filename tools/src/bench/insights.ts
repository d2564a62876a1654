/**
 * Insights under load (issue 15):
 * - `insights-analytics`: E24 (30 days) for a workspace with 50 sandbox
 *   accounts and 5,000 published renditions, one request at a time (target
 *   p50 < 50 ms) and with 10 connections. The accounts are connected through
 *   the API; the renditions, their measurements and 30 daily follower
 *   snapshots per account are seeded directly into the insights schema
 *   (DATABASE_URL), as the sync jobs would have stored them: publishing 5,000
 *   posts is the scheduler's benchmark, not this one.
 * - `insights-sync`: 1,000 sandbox accounts connected through the API, one
 *   POST /analytics/refresh for the workspace, timed until every account's
 *   metrics were stored (sync jobs through publishing's sandbox adapter).
 */
import autocannon from 'autocannon';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { sandboxPostMetrics } from '@social/contracts';
import { api, inParallel, createBenchWorkspace } from './seeding.js';

const ANALYTICS_ACCOUNTS = 50;
const ANALYTICS_RENDITIONS = Number(process.env.BENCH_INSIGHTS_RENDITIONS ?? 5_000);
const SYNC_ACCOUNTS = Number(process.env.BENCH_SYNC_ACCOUNTS ?? 1_000);
const ANALYTICS_P50_TARGET_MS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);
const SEED_CONCURRENCY = 16;
const DAY_MS = 86_400_000;

export interface InsightsFigures {
  analytics?: {
    accounts: number;
    renditions: number;
    singleP50Ms: number;
    singleP99Ms: number;
    singleReqPerSec: number;
    tenP50Ms: number;
    tenReqPerSec: number;
    non2xx: number;
    met: boolean;
  };
  sync?: { accounts: number; durationS: number; accountsPerS: number; failed: number };
}

async function workspaceWithAccounts(
  baseUrl: string,
  token: string,
  name: string,
  accounts: number,
): Promise<{ workspaceId: string; accountIds: string[] }> {
  const workspace = await createBenchWorkspace(baseUrl, token, name);
  const accountIds: string[] = new Array(accounts);
  await inParallel(accounts, SEED_CONCURRENCY, async (index) => {
    const username = `bench_${randomBytes(5).toString('hex')}`;
    accountIds[index] = (
      await api<{ id: string }>(
        baseUrl,
        token,
        'POST',
        '/social-accounts/connect',
        { workspace_id: workspace.id, provider: 'sandbox', username },
        201,
      )
    ).id;
  });
  return { workspaceId: workspace.id, accountIds };
}

/** Renditions over the last 90 days (a third in the 30-day window), measured; 30 daily snapshots per account. */
async function seedAnalytics(db: pg.Client, workspaceId: string, accountIds: string[]): Promise<void> {
  await db.query('BEGIN');
  try {
    await db.query(
      `INSERT INTO insights.accounts (id, workspace_id, platform, username, status, last_attempted_at, last_success_at, first_success_at)
       SELECT id, $1, 'sandbox', 'bench_' || left(id::text, 8), 'ok', now(), now(), now() FROM unnest($2::uuid[]) AS id
       ON CONFLICT (id) DO NOTHING`,
      [workspaceId, accountIds],
    );
    await db.query(
      `INSERT INTO insights.account_snapshots (account_id, workspace_id, date, followers, following, posts, collected_at)
       SELECT a, $1, (now() AT TIME ZONE 'UTC')::date - d, 1000 + d * 3, 100, 50, now() - make_interval(days => d)
         FROM unnest($2::uuid[]) AS a, generate_series(0, 29) AS d ON CONFLICT DO NOTHING`,
      [workspaceId, accountIds],
    );
    const now = Date.now();
    for (let start = 0; start < ANALYTICS_RENDITIONS; start += 500) {
      const rows = Array.from({ length: Math.min(500, ANALYTICS_RENDITIONS - start) }, (_, i) => {
        const index = start + i;
        const externalId = `post-bench-${randomBytes(8).toString('hex')}`;
        const m = sandboxPostMetrics(externalId);
        return {
          id: randomUUID(),
          publication: randomUUID(),
          account: accountIds[index % accountIds.length],
          publishedAt: new Date(now - (index * 90 * DAY_MS) / ANALYTICS_RENDITIONS).toISOString(),
          ...m,
        };
      });
      await db.query(
        `INSERT INTO insights.renditions (id, workspace_id, publication_id, social_account_id, platform, title, excerpt, content_profile,
                                          external_id, external_url, published_at, status, views, likes, comments, reposts, collected_at,
                                          last_attempted_at)
         SELECT r.id, $1, r.publication, r.account, 'sandbox', 'Bench post', 'A seeded rendition for the analytics benchmark.',
                'short_text', r.external_id, '', r.published_at, 'ok', r.views, r.likes, r.comments, r.reposts, now(), now()
           FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::timestamptz[], $7::bigint[], $8::bigint[], $9::bigint[],
                       $10::bigint[])
                AS r(id, publication, account, external_id, published_at, views, likes, comments, reposts)`,
        [
          workspaceId,
          rows.map((r) => r.id),
          rows.map((r) => r.publication),
          rows.map((r) => r.account),
          rows.map((r) => r.externalId),
          rows.map((r) => r.publishedAt),
          rows.map((r) => r.views),
          rows.map((r) => r.likes),
          rows.map((r) => r.comments),
          rows.map((r) => r.reposts),
        ],
      );
      await db.query(
        `INSERT INTO insights.rendition_metrics (rendition_id, workspace_id, collected_at, views, likes, comments, reposts)
         SELECT id, workspace_id, collected_at, views, likes, comments, reposts FROM insights.renditions WHERE id = ANY($1::uuid[])`,
        [rows.map((r) => r.id)],
      );
    }
    await db.query('COMMIT');
    await db.query('ANALYZE insights.renditions');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
}

export async function benchInsightsAnalytics(
  baseUrl: string,
  databaseUrl: string,
  token: string,
): Promise<NonNullable<InsightsFigures['analytics']>> {
  console.log(`\ninsights-analytics: E24, 30 days, ${ANALYTICS_ACCOUNTS} accounts, ${ANALYTICS_RENDITIONS} renditions`);
  const { workspaceId, accountIds } = await workspaceWithAccounts(baseUrl, token, 'Bench analytics', ANALYTICS_ACCOUNTS);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await seedAnalytics(db, workspaceId, accountIds);
  } finally {
    await db.end();
  }
  const url = `${baseUrl}/analytics?workspace_id=${workspaceId}&days=30`;
  const headers = { authorization: `Bearer ${token}` };
  const probe = await fetch(url, { headers });
  const body = (await probe.json()) as { content_total?: number; accounts?: unknown[] };
  console.log(`  probe ${probe.status}: content_total ${body.content_total}, ${body.accounts?.length} accounts`);
  if (probe.status !== 200) throw new Error(`GET /analytics answered ${probe.status}`);
  await autocannon({ url, headers, connections: 1, duration: 3 });
  const single = await autocannon({ url, headers, connections: 1, duration: DURATION_S });
  const ten = await autocannon({ url, headers, connections: 10, duration: DURATION_S });
  const figures = {
    accounts: ANALYTICS_ACCOUNTS,
    renditions: ANALYTICS_RENDITIONS,
    singleP50Ms: single.latency.p50,
    singleP99Ms: single.latency.p99,
    singleReqPerSec: single.requests.mean,
    tenP50Ms: ten.latency.p50,
    tenReqPerSec: ten.requests.mean,
    non2xx: single.non2xx + ten.non2xx + single.errors + ten.errors,
    met: single.latency.p50 < ANALYTICS_P50_TARGET_MS && single.non2xx + single.errors === 0,
  };
  console.log(`  one at a time: p50 ${figures.singleP50Ms} ms, p99 ${figures.singleP99Ms} ms, ${figures.singleReqPerSec.toFixed(0)} req/s`);
  console.log(`  10 connections: p50 ${figures.tenP50Ms} ms, ${figures.tenReqPerSec.toFixed(0)} req/s; non-2xx/errors ${figures.non2xx}`);
  console.log(`  ${figures.met ? 'MET    ' : 'NOT MET'} E24 p50 < ${ANALYTICS_P50_TARGET_MS} ms single-request`);
  return figures;
}

export async function benchInsightsSync(
  baseUrl: string,
  databaseUrl: string,
  token: string,
): Promise<NonNullable<InsightsFigures['sync']>> {
  console.log(`\ninsights-sync: ${SYNC_ACCOUNTS} sandbox accounts, one POST /analytics/refresh`);
  const connected = Date.now();
  const { workspaceId, accountIds } = await workspaceWithAccounts(baseUrl, token, 'Bench sync', SYNC_ACCOUNTS);
  console.log(`  connected in ${((Date.now() - connected) / 1000).toFixed(1)} s`);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const started = Date.now();
    await api(baseUrl, token, 'POST', '/analytics/refresh', { workspace_id: workspaceId }, 202);
    let synced = 0;
    let failed = 0;
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ synced: number; failed: number }>(
        `SELECT count(*) FILTER (WHERE last_success_at >= $2)::int AS synced,
                count(*) FILTER (WHERE status NOT IN ('ok', 'pending'))::int AS failed
           FROM insights.accounts WHERE id = ANY($1::uuid[])`,
        [accountIds, new Date(started)],
      );
      ({ synced, failed } = rows[0]);
      if (synced + failed >= SYNC_ACCOUNTS) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const durationS = (Date.now() - started) / 1000;
    console.log(
      `  ${synced} accounts synced (${failed} failed) in ${durationS.toFixed(1)} s: ${(synced / durationS).toFixed(0)} accounts/s`,
    );
    return { accounts: synced, durationS, accountsPerS: synced / durationS, failed };
  } finally {
    await db.end();
  }
}
