/**
 * E9 under load: `GET /admin/users?per_page=100` against 10,000 users. The
 * target is a single request's latency (median < 100 ms), so it is measured at
 * low concurrency (1 and 4 connections), not at the 50 of the throughput runs.
 * Users are seeded straight into the accounts schema of the stack's database,
 * in one INSERT, only as many as are missing.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DIRECTORY_USERS = 10_000;
const TARGET_P50_MS = 100;
const DURATION_S = Number(process.env.BENCH_E9_DURATION_S ?? 10);

export interface DirectoryRow {
  target: string;
  connections: number;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function seed(databaseUrl: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const [{ count }] = (await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM accounts.users`)).rows;
    const missing = DIRECTORY_USERS - count;
    if (missing > 0) {
      const run = randomBytes(4).toString('hex');
      // Spread over a year of sign-ups; every third user never signed in.
      await db.query(
        `INSERT INTO accounts.users (id, email, display_name, created_at, updated_at, last_active_at)
         SELECT gen_random_uuid(), 'bench-dir-' || $2 || '-' || n || '@example.com', 'Bench User ' || n,
           now() - n * interval '53 minutes', now(), CASE WHEN n % 3 = 0 THEN NULL ELSE now() - n * interval '7 minutes' END
         FROM generate_series(1, $1::int) AS n`,
        [missing, run],
      );
    }
    await db.query('ANALYZE accounts.users');
    return Math.max(count, DIRECTORY_USERS);
  } finally {
    await db.end();
  }
}

/** An instance admin: a fresh account promoted in the accounts schema, signed in again so its token says so. */
async function adminToken(baseUrl: string, databaseUrl: string): Promise<string> {
  const email = `bench-admin-${randomBytes(6).toString('hex')}@example.com`;
  const password = randomBytes(16).toString('base64url');
  const post = (path: string, body: object) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const registered = await post('/auth/register', { email, password });
  if (registered.status !== 201) throw new Error(`POST /auth/register answered ${registered.status}`);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`UPDATE accounts.users SET is_admin = true WHERE lower(email) = lower($1)`, [email]).finally(() => db.end());
  const login = await post('/auth/login', { email, password });
  const body = (await login.json()) as { access_token?: string; user?: { is_admin?: boolean } };
  if (login.status !== 200 || !body.user?.is_admin || !body.access_token) throw new Error(`admin sign-in failed (${login.status})`);
  return body.access_token;
}

export async function benchDirectory(baseUrl: string, databaseUrl: string): Promise<{ rows: DirectoryRow[]; met: boolean }> {
  const users = await seed(databaseUrl);
  const headers = { authorization: `Bearer ${await adminToken(baseUrl, databaseUrl)}` };
  console.log(`\nE9: ${users} users in the directory; ${DURATION_S} s per figure after 2 s of warm-up`);
  const targets = [
    { name: 'GET /admin/users?per_page=100', path: '/admin/users?per_page=100' },
    {
      name: 'GET /admin/users?per_page=100&page=50&sort=email&direction=asc',
      path: '/admin/users?per_page=100&page=50&sort=email&direction=asc',
    },
    {
      name: 'GET /admin/users?per_page=100&search=user 12&sort=last_active_at',
      path: '/admin/users?per_page=100&search=user%2012&sort=last_active_at',
    },
  ];
  const rows: DirectoryRow[] = [];
  for (const target of targets) {
    const url = `${baseUrl}${target.path}`;
    const probe = await fetch(url, { headers });
    const page = (await probe.json()) as { total?: number; users?: unknown[] };
    console.log(`${target.name}: probe ${probe.status}, total ${page.total}, ${page.users?.length} users on the page`);
    for (const connections of [1, 4]) {
      await autocannon({ url, headers, connections, duration: 2 });
      const r = await autocannon({ url, headers, connections, duration: DURATION_S });
      rows.push({
        target: target.name,
        connections,
        requests: r.requests.total,
        reqPerSec: r.requests.mean,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors,
      });
    }
  }
  console.log(`\n${'E9 target'.padEnd(72)}  conns  req/s  p50 ms  p99 ms  non-2xx`);
  for (const r of rows) {
    const cells = [
      r.target.padEnd(72),
      String(r.connections).padStart(5),
      r.reqPerSec.toFixed(0).padStart(5),
      r.p50Ms.toFixed(1).padStart(6),
      r.p99Ms.toFixed(1).padStart(6),
      String(r.non2xx + r.errors).padStart(7),
    ];
    console.log(cells.join('  '));
  }
  const headline = rows[0];
  const met = headline.p50Ms < TARGET_P50_MS && headline.non2xx === 0 && headline.errors === 0;
  console.log(`\ntarget: E9 page of 100 of ${users} users, median < ${TARGET_P50_MS} ms at 1 connection`);
  console.log(`  ${met ? 'MET    ' : 'NOT MET'} p50 ${headline.p50Ms.toFixed(1)} ms, p99 ${headline.p99Ms.toFixed(1)} ms`);
  return { rows, met };
}
