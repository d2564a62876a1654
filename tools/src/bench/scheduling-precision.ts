/**
 * Scheduling precision (issue: "keeps 50 renditions a second becoming due for 60 s, with every consumer running; how
 * late each went live"). Seeds through the API: sandbox accounts, and publications scheduled one after another so
 * that RENDITIONS_PER_SECOND renditions fall due every second for DURATION_S seconds (random delay 0). The stack's
 * consumers of what gets published (notifications' inbox, insights, webhooks) run as usual while they go out.
 * Lateness of a rendition: from its publication's scheduled_at to the end of the attempt that put it live on the
 * sandbox. Duplicates are counted as in the scheduler target (a second sandbox post for one rendition).
 */
import pg from 'pg';
import { api, createBenchWorkspace, inParallel } from './seeding.js';

const RENDITIONS_PER_SECOND = Number(process.env.BENCH_DUE_PER_SECOND ?? 50);
const DURATION_S = Number(process.env.BENCH_DUE_SECONDS ?? 60);
/** Renditions per publication: each publication is one due time. */
const ACCOUNTS_PER_PUBLICATION = 5;
const SEED_CONCURRENCY = 16;
const TARGET_P99_S = 1;

export interface SchedulingPrecisionFigures {
  duePerSecond: number;
  seconds: number;
  renditions: number;
  live: number;
  /** Seconds from due to live. */
  latenessP50S: number;
  latenessP99S: number;
  latenessMaxS: number;
  duplicates: number;
  met: boolean;
}

const quantile = (sorted: number[], q: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

export async function benchSchedulingPrecision(baseUrl: string, databaseUrl: string, token: string): Promise<SchedulingPrecisionFigures> {
  const publications = Math.ceil((RENDITIONS_PER_SECOND * DURATION_S) / ACCOUNTS_PER_PUBLICATION);
  const spacingMs = 1000 / (RENDITIONS_PER_SECOND / ACCOUNTS_PER_PUBLICATION);
  console.log(
    `\nscheduling precision: ${RENDITIONS_PER_SECOND} renditions due a second for ${DURATION_S} s ` +
      `(${publications} publications × ${ACCOUNTS_PER_PUBLICATION} sandbox accounts, one due every ${spacingMs} ms); ` +
      `target p99 ≤ ${TARGET_P99_S} s`,
  );
  const workspace = await createBenchWorkspace(baseUrl, token, 'Bench precision');
  const accountIds: string[] = [];
  for (let i = 0; i < ACCOUNTS_PER_PUBLICATION; i += 1) {
    const account = await api<{ id: string }>(
      baseUrl,
      token,
      'POST',
      '/social-accounts/connect',
      { workspace_id: workspace.id, provider: 'sandbox' },
      201,
    );
    accountIds.push(account.id);
  }
  const ids: string[] = new Array(publications);
  const seeded = Date.now();
  await inParallel(publications, SEED_CONCURRENCY, async (index) => {
    const draft = {
      workspace_id: workspace.id,
      content_profile: 'short_text',
      title: `Due ${index}`,
      source_text: `Due on time ${index}.`,
    };
    ids[index] = (await api<{ id: string }>(baseUrl, token, 'POST', '/publications', draft, 201)).id;
  });
  const createS = (Date.now() - seeded) / 1000;
  // Scheduling takes about as long as creating did; the first due time leaves room for it (and the API's 60 s rule).
  const firstDue = Date.now() + Math.ceil(createS * 1.5 + 10) * 1000;
  const dueAt = (index: number) => new Date(firstDue + Math.round(index * spacingMs));
  const scheduling = Date.now();
  await inParallel(publications, SEED_CONCURRENCY, async (index) => {
    // A new publication has no random delay: it falls due at scheduled_at.
    const body = { expected_revision: 1, scheduled_at: dueAt(index).toISOString(), account_ids: accountIds };
    await api(baseUrl, token, 'POST', `/publications/${ids[index]}/schedule`, body, 200);
  });
  console.log(
    `  created in ${createS.toFixed(1)} s, scheduled in ${((Date.now() - scheduling) / 1000).toFixed(1)} s; ` +
      `due from ${new Date(firstDue).toISOString()} for ${DURATION_S} s`,
  );
  if (Date.now() > firstDue) console.log('  !!! scheduling ran past the first due time: the early figures are not valid');

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const lastDue = dueAt(publications - 1).getTime();
    // Wait for the window to pass, then up to 60 s more for the last ones to go live.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastDue - Date.now())));
    const deadline = Date.now() + 60_000;
    let live = 0;
    const total = publications * ACCOUNTS_PER_PUBLICATION;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM publishing.renditions WHERE publication_id = ANY($1::uuid[]) AND status = 'published'`,
        [ids],
      );
      live = rows[0].n;
      if (live === total) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const { rows: lateness } = await db.query<{ s: number }>(
      `SELECT extract(epoch FROM a.finished_at - p.scheduled_at)::float8 AS s
         FROM publishing.delivery_attempts a JOIN publishing.publications p ON p.id = a.publication_id
        WHERE a.publication_id = ANY($1::uuid[]) AND a.outcome = 'live'
        ORDER BY s`,
      [ids],
    );
    const { rows: duplicated } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT marker FROM publishing.sandbox_posts
          WHERE marker IN (SELECT id::text FROM publishing.renditions WHERE publication_id = ANY($1::uuid[]))
          GROUP BY marker HAVING count(*) > 1) d`,
      [ids],
    );
    const seconds = lateness.map((row) => row.s);
    const figures: SchedulingPrecisionFigures = {
      duePerSecond: RENDITIONS_PER_SECOND,
      seconds: DURATION_S,
      renditions: total,
      live,
      latenessP50S: quantile(seconds, 0.5),
      latenessP99S: quantile(seconds, 0.99),
      latenessMaxS: seconds[seconds.length - 1] ?? NaN,
      duplicates: duplicated[0].n,
      met: false,
    };
    figures.met = live === total && figures.duplicates === 0 && figures.latenessP99S <= TARGET_P99_S;
    console.log(
      `  ${live}/${total} live; lateness p50 ${figures.latenessP50S.toFixed(3)} s, p99 ${figures.latenessP99S.toFixed(3)} s, ` +
        `max ${figures.latenessMaxS.toFixed(3)} s; ${figures.duplicates} duplicates → ${figures.met ? 'MET' : 'NOT MET'}`,
    );
    return figures;
  } finally {
    await db.end();
  }
}
