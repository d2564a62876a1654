/**
 * What insights' syncs cost publishing (issue 15): the internal NATS requests
 * `publishing.providers.*` straight over NATS, as the insights service sends
 * them. Seeds through the API (sandbox accounts, publications published now to
 * all of them), then measures, with `PROVIDER_INSIGHTS_CONCURRENCY` requests in
 * flight: walking every published rendition of the workspace in pages of 100
 * (keyset on renditions.published_at), the sandbox's account metrics, and post
 * metrics of 100 posts a request. The issue sets no target: figures to compare
 * run against run; `met` only says every request was answered without a problem.
 */
import { CallerTokenSigner, connectNats, natsAuthFromEnvironment, RpcClient } from '@social/platform';
import { loadOrCreateSecrets, REPO_ROOT } from '@social/testing';
import { join } from 'node:path';
import pg from 'pg';
import { api, inParallel, createBenchWorkspace } from './seeding.js';

const ACCOUNTS = 10;
const PUBLICATIONS = Number(process.env.BENCH_INSIGHTS_PUBLICATIONS ?? 100);
const REQUESTS = Number(process.env.BENCH_INSIGHTS_REQUESTS ?? 2_000);
const CONCURRENCY = 16;
const PAGE = 100;

export interface ProviderInsightsRow {
  target: string;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  problems: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;

/** `count` requests, CONCURRENCY in flight: throughput and latency; a problem answer counts, never throws. */
async function measure(
  target: string,
  count: number,
  concurrency: number,
  ask: (index: number) => Promise<unknown>,
): Promise<ProviderInsightsRow> {
  const latencies: number[] = [];
  let problems = 0;
  const started = performance.now();
  await inParallel(count, concurrency, async (index) => {
    const at = performance.now();
    try {
      const answer = (await ask(index)) as { status?: string } | undefined;
      if (answer && typeof answer.status === 'string' && answer.status !== 'ok') problems += 1;
    } catch {
      problems += 1;
    }
    latencies.push(performance.now() - at);
  });
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const row = {
    target,
    requests: count,
    reqPerSec: count / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    problems,
  };
  const rate = `${row.reqPerSec.toFixed(0).padStart(6)}/s`;
  const p50 = `p50 ${row.p50Ms.toFixed(1).padStart(6)} ms`;
  const p99 = `p99 ${row.p99Ms.toFixed(1).padStart(6)} ms`;
  console.log(`  ${target.padEnd(64)} ${String(count).padStart(6)}  ${rate}  ${p50}  ${p99}  ${problems} problems`);
  return row;
}

export async function benchProviderInsights(
  baseUrl: string,
  databaseUrl: string,
  natsUrl: string,
  token: string,
): Promise<{ rows: ProviderInsightsRow[]; met: boolean }> {
  console.log(
    `\nprovider insights: ${ACCOUNTS} sandbox accounts × ${PUBLICATIONS} publications published, ` +
      `then internal requests (${CONCURRENCY} in flight)`,
  );
  const workspace = await createBenchWorkspace(baseUrl, token, 'Bench insights');
  const accountIds: string[] = [];
  for (let i = 0; i < ACCOUNTS; i += 1) {
    accountIds.push(
      (
        await api<{ id: string }>(
          baseUrl,
          token,
          'POST',
          '/social-accounts/connect',
          { workspace_id: workspace.id, provider: 'sandbox' },
          201,
        )
      ).id,
    );
  }
  const seeded = Date.now();
  const publicationIds: string[] = new Array(PUBLICATIONS);
  await inParallel(PUBLICATIONS, CONCURRENCY, async (index) => {
    const draft = {
      workspace_id: workspace.id,
      content_profile: 'short_text',
      title: `Insights ${index}`,
      source_text: `Measured bench post ${index}.`,
    };
    const created = await api<{ id: string; revision: number }>(baseUrl, token, 'POST', '/publications', draft, 201);
    await api(
      baseUrl,
      token,
      'POST',
      `/publications/${created.id}/publish-now`,
      { expected_revision: created.revision, account_ids: accountIds },
      200,
    );
    publicationIds[index] = created.id;
  });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      const { rows } = await db.query<{ live: number }>(
        `SELECT count(*)::int AS live FROM publishing.renditions WHERE publication_id = ANY($1::uuid[]) AND published_at IS NOT NULL`,
        [publicationIds],
      );
      if (rows[0].live === PUBLICATIONS * ACCOUNTS) break;
      if (Date.now() > deadline) throw new Error(`only ${rows[0].live} of ${PUBLICATIONS * ACCOUNTS} renditions went live`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await db.end();
  }
  console.log(`  seeded ${PUBLICATIONS * ACCOUNTS} published renditions in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

  const nc = await connectNats(natsUrl, 'bench-provider-insights', natsAuthFromEnvironment());
  // Signed as the insights service signs its requests (the dev stack's key pair).
  const secrets = loadOrCreateSecrets(join(REPO_ROOT, '.data'));
  const rpc = new RpcClient(
    nc,
    10_000,
    undefined,
    CallerTokenSigner.fromPem(process.env.JWT_PRIVATE_KEY || secrets.jwtPrivateKey, 'insights'),
  );
  const ask = (pattern: string, payload: object) => rpc.send<any>(pattern, payload, { requestId: 'bench-insights' });
  const rows: ProviderInsightsRow[] = [];
  try {
    // The walk is sequential by nature (each page's cursor comes from the one before): pages one after another.
    let after: unknown = null;
    let pages = 0;
    const walk = await measure(
      `walk ${PUBLICATIONS * ACCOUNTS} published renditions, pages of ${PAGE}`,
      Math.ceil((PUBLICATIONS * ACCOUNTS) / PAGE),
      1,
      async () => {
        const page = await ask('publishing.providers.published-renditions', { workspace_id: workspace.id, limit: PAGE, after });
        after = page.next_after;
        pages += 1;
        return undefined;
      },
    );
    rows.push(walk);
    if (after !== null) console.log(`  !!! the walk did not reach the last page after ${pages} pages`);
    const { renditions } = await ask('publishing.providers.published-renditions', { social_account_id: accountIds[0], limit: PAGE });
    const postIds = (renditions as Array<{ external_id: string }>).map((rendition) => rendition.external_id);
    rows.push(
      await measure('account metrics (sandbox)', REQUESTS, CONCURRENCY, (index) =>
        ask('publishing.providers.metrics', { workspace_id: workspace.id, account_id: accountIds[index % ACCOUNTS] }),
      ),
    );
    rows.push(
      await measure(`post metrics, ${postIds.length} posts a request (sandbox)`, Math.ceil(REQUESTS / 4), CONCURRENCY, () =>
        ask('publishing.providers.post-metrics', { workspace_id: workspace.id, account_id: accountIds[0], external_ids: postIds }),
      ),
    );
    rows.push(
      await measure('list accounts of the workspace', REQUESTS, CONCURRENCY, () =>
        ask('publishing.providers.accounts', { workspace_id: workspace.id }),
      ),
    );
  } finally {
    await nc.drain();
  }
  return { rows, met: rows.every((row) => row.problems === 0) };
}
