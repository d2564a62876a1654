/**
 * `npm run bench`: how much of a bare Fastify + pg server's throughput the
 * gateway keeps on real read paths. Absolute req/s swings ±30% between runs, so
 * the figure that matters is each gateway path's ratio to the baseline measured
 * in the same run (docs/performance.md).
 */
import autocannon, { type Result } from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDirectory, DirectoryRow } from './admin-users.js';
import {
  benchCreativeExport,
  benchCreativeTemplates,
  type CreativeExportFigures,
  type CreativeTemplatesFigures,
} from './creative-image.js';
import { benchMediaUploads, MediaUploadFigures, RSS_GROWTH_TARGET_MIB, seedMediaLibrary, UPLOAD_RATIO_TARGET } from './media.js';
import { benchInsightsAnalytics, benchInsightsSync, type InsightsFigures } from './insights.js';
import { benchNotifications, type NotificationFigures } from './notifications.js';
import { benchPostsMedia } from './posts-media.js';
import { benchYouTubeUpload } from './youtube-upload.js';
import { benchProviderInsights, type ProviderInsightsRow } from './provider-insights.js';
import { benchScheduler, type SchedulerRow } from './scheduler.js';
import { benchSchedulingPrecision, type SchedulingPrecisionFigures } from './scheduling-precision.js';
import { benchCreativeVideo, type CreativeVideoFigures } from './creative-video.js';
import { benchWebhooks } from './webhooks.js';
import { type CpuByRole, cpuByRole, cpuPerRequest } from './process-cpu.js';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);
// Nest paths run up to 8× slower without a few seconds of warm-up (JIT, pools).
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 3);
// Rounds run the targets interleaved; the table shows each figure's median.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
// `all` (default), `throughput` (the ratio runs only), `admin-users` (E9 only), `media-uploads` (the upload figures only),
// `scheduler` (delivery of 10,000 renditions only), `scheduling-precision` (50 renditions falling due a second for 60 s:
// how late each went live; BENCH_DUE_PER_SECOND and BENCH_DUE_SECONDS change them),
// `notifications` (event → in-app latency and GET /notifications),
// `creative-video` (PUT /video-projects/{id} with a 200 KB document only), `creative-templates` (E22 under load),
// `creative-export` (1080×1080 PNG exports), `provider-insights` (insights' internal requests to publishing only),
// `insights-analytics` (E24 over 50 accounts and 5,000 renditions), `insights-sync` (a metrics sync of 1,000 sandbox accounts)
// or `posts-media` (publications with four 4000×3000 JPEGs to the sandbox and a 500 MiB video to a fake Mastodon, on a
// platform of its own: no `npm start` needed; BENCH_POSTS_MEDIA_PUBLICATIONS and BENCH_POSTS_MEDIA_VIDEO_MIB scale it down),
// or `youtube-upload` (a 1 GiB video to the fake YouTube through the resumable upload, on a platform of its own:
// publishing's RSS growth and its throughput against a direct storage read; BENCH_YOUTUBE_VIDEO_MIB scales it),
// or `webhooks` (1,000 sandbox renditions with 3 subscriptions on a local receiver, on a platform of its own: event → receiver
// p50/p99, lost and duplicated deliveries; BENCH_WEBHOOKS_RENDITIONS scales it).
const ONLY = process.env.BENCH_TARGETS ?? 'all';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dataDir = join(root, '.data');

interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** Each request gets a fresh id wherever `[<id>]` appears (autocannon's idReplacement), e.g. an Idempotency-Key. */
  freshIds?: boolean;
  /**
   * The hot-path issue's goal for this target (docs/performance.md): at least `ratio` of the baseline's req/s and, where
   * set, a p99 at most `p99TimesBaseline` × the baseline's. None: measured to be compared run against run.
   */
  goal?: { ratio: number; p99TimesBaseline?: number };
}

interface Row {
  target: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  ratio?: number;
  /** CPU milliseconds one request cost in each part of the stack (Linux): which process the path saturates. */
  cpuMsPerRequest?: CpuByRole;
}

/** Env first (for a stack started by hand), then what `npm start` wrote. */
function stackCoordinates(): { baseUrl: string; databaseUrl: string; natsUrl: string; gatewayPid?: number } {
  let file: { baseUrl?: string; databaseUrl?: string; natsUrl?: string; pids?: { gateway?: number } } = {};
  const stackFile = join(dataDir, 'stack.json');
  if (existsSync(stackFile)) file = JSON.parse(readFileSync(stackFile, 'utf8'));
  const baseUrl = process.env.BENCH_BASE_URL ?? file.baseUrl;
  const databaseUrl = process.env.DATABASE_URL ?? file.databaseUrl;
  if (!baseUrl || !databaseUrl) {
    console.error('bench: no running stack found: start the platform with npm start first');
    console.error('  (or set BENCH_BASE_URL and DATABASE_URL for a stack started by hand)');
    process.exit(1);
  }
  const gatewayPid = Number(process.env.BENCH_GATEWAY_PID ?? file.pids?.gateway) || undefined;
  return {
    baseUrl: baseUrl.replace(/\/$/, ''),
    databaseUrl,
    natsUrl: process.env.NATS_URL ?? file.natsUrl ?? 'nats://127.0.0.1:4222',
    gatewayPid,
  };
}

/** Forks baseline.js and waits for it to report the port it listens on. */
function startBaseline(databaseUrl: string): { child: ChildProcess; port: Promise<number> } {
  const child = fork(fileURLToPath(new URL('./baseline.js', import.meta.url)), {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`baseline exited with code ${code} before listening`)));
  });
  return { child, port };
}

/** A fresh account, so the run never depends on (or disturbs) existing data. */
async function register(baseUrl: string): Promise<{ token: string; userId: string }> {
  const email = `bench-${randomBytes(6).toString('hex')}@example.com`;
  const res = await fetch(`${baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: randomBytes(16).toString('base64url') }),
  });
  const body = (await res.json().catch(() => undefined)) as { access_token?: string; user?: { id?: string } } | undefined;
  if (res.status !== 201 || !body?.access_token || !body.user?.id) {
    throw new Error(`POST /auth/register answered ${res.status}: ${JSON.stringify(body)}`);
  }
  return { token: body.access_token, userId: body.user.id };
}

/** POSTs JSON with the bench user's token; anything but the expected status stops the run. */
async function postJson<T>(url: string, token: string, body: object, expected = 201): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => undefined)) as T;
  if (res.status !== expected) throw new Error(`POST ${new URL(url).pathname} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Two workspaces of the bench user: one the creates fill, one seeded with `listed` publications for the list. */
async function publicationWorkspaces(baseUrl: string, token: string, listed: number): Promise<{ writeTo: string; listFrom: string }> {
  const organization = await postJson<{ id: string }>(`${baseUrl}/organizations`, token, { name: 'Bench' });
  const workspace = async (name: string) =>
    (await postJson<{ id: string }>(`${baseUrl}/workspaces`, token, { organization_id: organization.id, name })).id;
  const [writeTo, listFrom] = [await workspace('Bench writes'), await workspace('Bench list')];
  for (let done = 0; done < listed; done += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, listed - done) }, (_, i) =>
        postJson(`${baseUrl}/publications`, token, publicationDraft(listFrom, `Seeded ${done + i}`)),
      ),
    );
  }
  return { writeTo, listFrom };
}

const publicationDraft = (workspaceId: string, title: string) => ({
  workspace_id: workspaceId,
  content_profile: 'thread',
  title,
  source_text: 'Five things we shipped this week, and what we learned from each of them.',
});

async function measure(target: Target): Promise<Row> {
  const options = {
    url: target.url,
    headers: target.headers,
    method: target.method ?? 'GET',
    body: target.body,
    idReplacement: target.freshIds ?? false,
    connections: CONNECTIONS,
  };
  // One request by hand first: a broken path shows its answer, not just a count.
  const probe = await fetch(target.url, { method: target.method, headers: target.headers, body: target.body });
  const probeBody = await probe.text();
  console.log(`${target.name}: probe ${probe.status} (${probeBody.length} bytes)${probe.ok ? '' : ` ${probeBody.slice(0, 200)}`}`);
  if (WARMUP_S > 0) await autocannon({ ...options, duration: WARMUP_S });
  const cpuBefore = cpuByRole();
  const r: Result = await autocannon({ ...options, duration: DURATION_S });
  const cpuMsPerRequest = cpuPerRequest(cpuBefore, cpuByRole(), r.requests.total);
  return {
    cpuMsPerRequest,
    target: target.name,
    reqPerSec: r.requests.mean,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors, // includes timeouts
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** One target's figures over the rounds: medians, and every failure summed. */
function medianRow(samples: Row[]): Row {
  const statusCodes: Record<string, number> = {};
  for (const sample of samples)
    for (const [code, n] of Object.entries(sample.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    target: samples[0].target,
    reqPerSec: median(samples.map((r) => r.reqPerSec)),
    p50Ms: median(samples.map((r) => r.p50Ms)),
    p99Ms: median(samples.map((r) => r.p99Ms)),
    non2xx: samples.reduce((sum, r) => sum + r.non2xx, 0),
    errors: samples.reduce((sum, r) => sum + r.errors, 0),
    statusCodes,
    ratio: samples[0].ratio === undefined ? undefined : median(samples.map((r) => r.ratio ?? 0)),
    cpuMsPerRequest: medianCpu(samples.map((r) => r.cpuMsPerRequest)),
  };
}

function medianCpu(samples: Array<CpuByRole | undefined>): CpuByRole | undefined {
  const measured = samples.filter((sample): sample is CpuByRole => sample !== undefined);
  if (measured.length === 0) return undefined;
  const roles = new Set(measured.flatMap((sample) => Object.keys(sample)));
  return Object.fromEntries([...roles].map((role) => [role, median(measured.map((sample) => sample[role] ?? 0))]));
}

/** Each target's CPU per request by process, largest first: where a path's time goes. */
function printCpu(rows: Row[]): void {
  if (!rows.some((r) => r.cpuMsPerRequest)) return;
  console.log('\nCPU ms per request (median of the rounds; the load generator included):');
  for (const r of rows) {
    if (!r.cpuMsPerRequest) continue;
    const parts = Object.entries(r.cpuMsPerRequest)
      .sort((a, b) => b[1] - a[1])
      .map(([role, ms]) => `${role} ${ms.toFixed(2)}`);
    console.log(`  ${r.target}: ${parts.join(', ')}`);
  }
}

function printTable(rows: Row[]): void {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'ratio'];
  const cells = rows.map((r) => [
    r.target,
    r.reqPerSec.toFixed(0),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    String(r.non2xx),
    String(r.errors),
    r.ratio === undefined ? '1.00' : r.ratio.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]): string => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const c of cells) console.log(line(c));
}

/** Share of CPU time idle over one second: other work on the box skews every figure. */
async function idleShare(): Promise<number> {
  const sum = (): { idle: number; total: number } =>
    os.cpus().reduce((a, c) => ({ idle: a.idle + c.times.idle, total: a.total + Object.values(c.times).reduce((x, y) => x + y, 0) }), {
      idle: 0,
      total: 0,
    });
  const a = sum();
  await new Promise((r) => setTimeout(r, 1000));
  const b = sum();
  return (b.idle - a.idle) / Math.max(1, b.total - a.total);
}

async function main(): Promise<void> {
  const machine = { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.release()}` };
  if (ONLY === 'posts-media') {
    // Its own platform (its publishing process sampled, PROVIDER_API_ORIGINS on a fake Mastodon): no running stack needed.
    const idle = await idleShare();
    console.log(
      `machine: ${machine.cpus} CPUs, node ${machine.node}, ${machine.platform}; idle before the run: ${(idle * 100).toFixed(0)}%`,
    );
    const postsMedia = await benchPostsMedia();
    writeResults({ machine, idleBefore: idle, postsMedia });
    if (!postsMedia.met) process.exitCode = 1;
    return;
  }
  if (ONLY === 'youtube-upload') {
    // Its own platform too (PROVIDER_API_ORIGINS on the fake YouTube), its publishing process sampled.
    const idle = await idleShare();
    console.log(
      `machine: ${machine.cpus} CPUs, node ${machine.node}, ${machine.platform}; idle before the run: ${(idle * 100).toFixed(0)}%`,
    );
    const youtubeUpload = await benchYouTubeUpload();
    writeResults({ machine, idleBefore: idle, youtubeUpload });
    if (!youtubeUpload.met) process.exitCode = 1;
    return;
  }
  if (ONLY === 'webhooks') {
    // Its own platform too (WEBHOOK_ALLOWED_ORIGINS on the local receiver).
    const idle = await idleShare();
    console.log(
      `machine: ${machine.cpus} CPUs, node ${machine.node}, ${machine.platform}; idle before the run: ${(idle * 100).toFixed(0)}%`,
    );
    const webhooks = await benchWebhooks();
    writeResults({ machine, idleBefore: idle, webhooks });
    if (!webhooks.met) process.exitCode = 1;
    return;
  }
  const { baseUrl, databaseUrl, natsUrl, gatewayPid } = stackCoordinates();
  console.log(`bench: ${baseUrl}, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s each, ${ROUNDS} round(s)`);
  console.log(`machine: ${machine.cpus} CPUs, node ${machine.node}, ${machine.platform}`);
  const idle = await idleShare();
  console.log(`idle before the run: ${(idle * 100).toFixed(0)}%\n`);
  if (idle < 0.8) console.log('!!! THE MACHINE IS BUSY with other work: these figures will be low and noisy\n');

  let directory: { rows: DirectoryRow[]; met: boolean } | undefined;
  let scheduler: { rows: SchedulerRow[]; met: boolean } | undefined;
  if (ONLY === 'scheduler') {
    scheduler = await benchScheduler(baseUrl, databaseUrl, natsUrl, (await register(baseUrl)).token);
    writeResults({ machine, idleBefore: idle, scheduler });
    if (!scheduler.met) process.exitCode = 1;
    return;
  }
  if (ONLY === 'scheduling-precision') {
    const schedulingPrecision = await benchSchedulingPrecision(baseUrl, databaseUrl, (await register(baseUrl)).token);
    writeResults({ machine, idleBefore: idle, schedulingPrecision });
    if (!schedulingPrecision.met) process.exitCode = 1;
    return;
  }
  if (ONLY === 'notifications') {
    const notifications = await benchNotifications(baseUrl, natsUrl, (await register(baseUrl)).token);
    writeResults({ machine, idleBefore: idle, notifications });
    if (!notifications.met) process.exitCode = 1;
    return;
  }

  let providerInsights: { rows: ProviderInsightsRow[]; met: boolean } | undefined;
  if (ONLY === 'provider-insights') {
    providerInsights = await benchProviderInsights(baseUrl, databaseUrl, natsUrl, (await register(baseUrl)).token);
    writeResults({ machine, idleBefore: idle, providerInsights });
    if (!providerInsights.met) process.exitCode = 1;
    return;
  }
  if (ONLY === 'insights-analytics' || ONLY === 'insights-sync') {
    const { token } = await register(baseUrl);
    const insights: InsightsFigures =
      ONLY === 'insights-analytics'
        ? { analytics: await benchInsightsAnalytics(baseUrl, databaseUrl, token) }
        : { sync: await benchInsightsSync(baseUrl, databaseUrl, token) };
    writeResults({ machine, idleBefore: idle, insights });
    if (insights.analytics && !insights.analytics.met) process.exitCode = 1;
    return;
  }
  if (ONLY === 'admin-users') {
    directory = await benchDirectory(baseUrl, databaseUrl);
    writeResults({ machine, idleBefore: idle, directory });
    if (!directory.met) process.exitCode = 1;
    return;
  }

  if (ONLY === 'creative-video') {
    const { token } = await register(baseUrl);
    const { writeTo } = await publicationWorkspaces(baseUrl, token, 0);
    const creativeVideo = await videoProjectWrites(baseUrl, token, writeTo);
    writeResults({ machine, idleBefore: idle, creativeVideo });
    if (Object.keys(creativeVideo.failures).length > 0) process.exitCode = 1;
    return;
  }

  // BENCH_TARGETS=creative-documents: PUT /video-projects/{id} with a 4.5 MiB document (docs/decisions.md's 5 MiB documents across NATS).
  if (ONLY === 'creative-documents') {
    const { token } = await register(baseUrl);
    const { writeTo } = await publicationWorkspaces(baseUrl, token, 0);
    const creativeDocuments = await videoProjectWrites(baseUrl, token, writeTo, 4.5 * 1024 * 1024);
    writeResults({ machine, idleBefore: idle, creativeDocuments });
    if (Object.keys(creativeDocuments.failures).length > 0) process.exitCode = 1;
    return;
  }

  if (ONLY === 'creative-templates' || ONLY === 'creative-export') {
    const { token } = await register(baseUrl);
    const { writeTo } = await publicationWorkspaces(baseUrl, token, 0);
    const creative = await creativeImage(baseUrl, token, writeTo, ONLY);
    writeResults({ machine, idleBefore: idle, creative });
    if (creative.failed) process.exitCode = 1;
    return;
  }

  if (ONLY === 'media-uploads') {
    const { token } = await register(baseUrl);
    const { writeTo } = await publicationWorkspaces(baseUrl, token, 0);
    const media = await mediaUploads(baseUrl, natsUrl, gatewayPid, token, writeTo);
    writeResults({ machine, idleBefore: idle, media });
    if (!media.ratioMet || !media.rssMet || !media.downloadRssMet) process.exitCode = 1;
    return;
  }

  const baseline = startBaseline(databaseUrl);
  // Whatever happens (error, Ctrl-C), the child must not outlive us.
  const killBaseline = (): void => void (baseline.child.exitCode === null && baseline.child.kill('SIGTERM'));
  process.once('exit', killBaseline);
  process.once('SIGINT', () => process.exit(130));
  try {
    const port = await baseline.port;
    const { token, userId } = await register(baseUrl);
    const auth = { authorization: `Bearer ${token}` };
    const publications = await publicationWorkspaces(baseUrl, token, 200);
    const create = { method: 'POST' as const, body: JSON.stringify(publicationDraft(publications.writeTo, 'Bench')) };
    const json = { ...auth, 'content-type': 'application/json' };
    await seedMediaLibrary(databaseUrl, publications.listFrom, userId);
    const targets: Target[] = [
      { name: 'baseline GET /users/:id', url: `http://127.0.0.1:${port}/users/${userId}` },
      { name: 'gateway GET /auth/me', url: `${baseUrl}/auth/me`, headers: auth, goal: { ratio: 0.42, p99TimesBaseline: 2 } },
      {
        name: 'gateway GET /notifications/preferences',
        url: `${baseUrl}/notifications/preferences`,
        headers: auth,
        goal: { ratio: 0.38 },
      },
      {
        name: 'gateway GET /publications (page of 50 of 200)',
        url: `${baseUrl}/publications?workspace_id=${publications.listFrom}`,
        headers: auth,
        goal: { ratio: 0.1 },
      },
      { name: 'gateway POST /publications', url: `${baseUrl}/publications`, headers: json, ...create },
      {
        name: 'gateway GET /media (page of 50 of 200)',
        url: `${baseUrl}/media?workspace_id=${publications.listFrom}`,
        headers: auth,
      },
      {
        name: 'gateway POST /publications, fresh Idempotency-Key',
        url: `${baseUrl}/publications`,
        headers: { ...json, 'idempotency-key': 'bench-[<id>]' },
        freshIds: true,
        ...create,
        goal: { ratio: 0.1 },
      },
    ];

    // BENCH_PATHS=me,preferences keeps the baseline and the targets whose name contains one of them (e.g. to profile one path).
    const onlyPaths = process.env.BENCH_PATHS?.split(',').filter(Boolean);
    if (onlyPaths) targets.splice(1, targets.length, ...targets.slice(1).filter((t) => onlyPaths.some((p) => t.name.includes(p))));

    // The user must be in DATABASE_URL, or the baseline measures 404s: a wrong
    // DATABASE_URL, or another stack's accounts service on the same NATS took the registration.
    const check = await fetch(targets[0].url);
    if (check.status !== 200) {
      throw new Error(`baseline cannot read the new user (${check.status}): DATABASE_URL is not the stack's database?`);
    }

    // Sequential, never concurrent: on a small machine they would steal each other's CPU.
    const rounds: Row[][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      if (ROUNDS > 1) console.log(`\nround ${round} of ${ROUNDS}`);
      const rows: Row[] = [];
      for (const t of targets) rows.push(await measure(t));
      // Ratios within one round: absolute req/s drifts between rounds.
      for (const r of rows.slice(1)) r.ratio = rows[0].reqPerSec > 0 ? r.reqPerSec / rows[0].reqPerSec : 0;
      rounds.push(rows);
    }
    const rows = targets.map((_, i) => medianRow(rounds.map((round) => round[i])));
    printTable(rows);
    printCpu(rows);

    // A fast path that answers 503 is not fast: any failure voids the figures.
    const failed = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
    for (const r of failed) {
      console.log(`\n!!! ${r.target}: ${r.non2xx} non-2xx responses, ${r.errors} errors ${JSON.stringify(r.statusCodes)}`);
    }
    if (failed.length > 0) console.log('!!! THIS RUN HAD FAILURES: its figures for those targets are not valid');
    if (failed.some((r) => r.statusCodes['429'])) {
      console.log('!!! 429s are the per-token limit (1,200/min): start the stack for benchmarking with');
      console.log('    TOKEN_RATE_LIMIT_PER_MINUTE=100000000 npm start');
    }

    console.log("\ngoals (docs/performance.md): a share of the baseline req/s, and for GET /auth/me a p99 within 2× the baseline's");
    const baselineP99 = rows[0].p99Ms;
    const verdicts = rows.slice(1).flatMap((r, i) => {
      const goal = targets[i + 1].goal;
      if (!goal) return [];
      const p99Limit = goal.p99TimesBaseline ? goal.p99TimesBaseline * baselineP99 : Infinity;
      const met = (r.ratio ?? 0) >= goal.ratio && r.p99Ms <= p99Limit && r.non2xx === 0 && r.errors === 0;
      const p99 = goal.p99TimesBaseline ? `, p99 ${r.p99Ms.toFixed(1)} ms (≤ ${p99Limit.toFixed(1)})` : '';
      console.log(`  ${met ? 'MET    ' : 'NOT MET'} ${r.target}: ${(r.ratio ?? 0).toFixed(2)} (≥ ${goal.ratio})${p99}`);
      return [{ target: r.target, met }];
    });

    let media: MediaUploadFigures | undefined;
    let insights: InsightsFigures | undefined;
    let creativeVideo: CreativeVideoFigures | undefined;
    let notifications: NotificationFigures | undefined;
    let schedulingPrecision: SchedulingPrecisionFigures | undefined;
    let creative: Awaited<ReturnType<typeof creativeImage>> | undefined;
    if (ONLY === 'all') {
      creativeVideo = await videoProjectWrites(baseUrl, token, publications.writeTo);
      directory = await benchDirectory(baseUrl, databaseUrl);
      media = await mediaUploads(baseUrl, natsUrl, gatewayPid, token, publications.writeTo);
      scheduler = await benchScheduler(baseUrl, databaseUrl, natsUrl, token);
      schedulingPrecision = await benchSchedulingPrecision(baseUrl, databaseUrl, (await register(baseUrl)).token);
      // A user of its own: the inbox's 1,000 items must not mix with the scheduler's post_published ones.
      notifications = await benchNotifications(baseUrl, natsUrl, (await register(baseUrl)).token);
      creative = await creativeImage(baseUrl, token, publications.writeTo, ONLY);
      providerInsights = await benchProviderInsights(baseUrl, databaseUrl, natsUrl, token);
      insights = {
        analytics: await benchInsightsAnalytics(baseUrl, databaseUrl, token),
        sync: await benchInsightsSync(baseUrl, databaseUrl, token),
      };
    }
    const settings = { connections: CONNECTIONS, warmupS: WARMUP_S, durationS: DURATION_S, rounds: ROUNDS, baseUrl };
    writeResults({
      machine,
      idleBefore: idle,
      settings,
      rows,
      rounds,
      verdicts,
      directory,
      media,
      scheduler,
      schedulingPrecision,
      notifications,
      creativeVideo,
      creative,
      providerInsights,
      insights,
    });
    const mediaMissed = media && (!media.ratioMet || !media.rssMet || !media.downloadRssMet);
    const videoFailed = creativeVideo && Object.keys(creativeVideo.failures).length > 0;
    const insightsFailed = (providerInsights && !providerInsights.met) || (insights?.analytics && !insights.analytics.met);
    if (
      failed.length > 0 ||
      verdicts.some((verdict) => !verdict.met) ||
      (schedulingPrecision && !schedulingPrecision.met) ||
      (directory && !directory.met) ||
      mediaMissed ||
      (scheduler && !scheduler.met) ||
      (notifications && !notifications.met) ||
      videoFailed ||
      creative?.failed ||
      insightsFailed
    ) {
      process.exitCode = 1;
    }
  } finally {
    killBaseline();
  }
}

/** PUT /video-projects/{id} with a 200 KB document: every request a new head revision (untargeted: compare run against run). */
async function videoProjectWrites(
  baseUrl: string,
  token: string,
  workspaceId: string,
  documentBytes = 200 * 1024,
): Promise<CreativeVideoFigures> {
  // 4.5 MiB documents: fewer connections by default (each request moves the document through the gateway, NATS and PostgreSQL twice).
  const connections = Number(process.env.BENCH_VIDEO_CONNECTIONS ?? (documentBytes > 1024 * 1024 ? 2 : 10));
  console.log(
    `\nvideo projects: PUT /video-projects/{id} (${(documentBytes / 1024).toFixed(0)} KB document), ` +
      `${connections} connections, each on its own project`,
  );
  const figures = await benchCreativeVideo({
    baseUrl,
    token,
    workspaceId,
    connections,
    warmupS: WARMUP_S,
    durationS: DURATION_S,
    documentBytes,
  });
  console.log(
    `  ${figures.requests} new head revisions of ${(figures.documentBytes / 1024).toFixed(0)} KB: ${figures.reqPerSec.toFixed(1)} req/s, ` +
      `p50 ${figures.p50Ms.toFixed(1)} ms, p99 ${figures.p99Ms.toFixed(1)} ms, failures ${JSON.stringify(figures.failures)}`,
  );
  return figures;
}

/** The upload figures and their verdicts. */
async function mediaUploads(
  baseUrl: string,
  natsUrl: string | undefined,
  gatewayPid: number | undefined,
  token: string,
  workspaceId: string,
): Promise<MediaUploadFigures> {
  if (!natsUrl) throw new Error("bench: the stack's NATS_URL is unknown (.data/stack.json or NATS_URL)");
  console.log('\nmedia uploads:');
  const media = await benchMediaUploads({ baseUrl, natsUrl, gatewayPid, token, workspaceId });
  console.log(
    `targets: upload through the gateway >= ${UPLOAD_RATIO_TARGET} of a direct ` +
      `object-store put; gateway RSS growth < ${RSS_GROWTH_TARGET_MIB} MiB`,
  );
  console.log(`  ${media.ratioMet ? 'MET    ' : 'NOT MET'} ${media.uploadMiB} MiB upload: ${media.ratio.toFixed(2)} of the direct put`);
  console.log(
    `  ${media.rssMet ? 'MET    ' : 'NOT MET'} ${media.bigUploadMiB} MiB upload: ` +
      `gateway RSS grew ${media.gatewayRssGrowthMiB.toFixed(1)} MiB`,
  );
  console.log(
    `  ${media.downloadRssMet ? 'MET    ' : 'NOT MET'} ${media.bigUploadMiB} MiB slow download: ` +
      `gateway RSS grew ${media.downloadRssGrowthMiB.toFixed(1)} MiB`,
  );
  return media;
}

/** The image editor's figures: E22 under load and 1080×1080 PNG exports (failures void them). */
async function creativeImage(
  baseUrl: string,
  token: string,
  workspaceId: string,
  only: string,
): Promise<{ templates?: CreativeTemplatesFigures; exports?: CreativeExportFigures; failed: boolean }> {
  let templates: CreativeTemplatesFigures | undefined;
  let exports: CreativeExportFigures | undefined;
  if (only !== 'creative-export') {
    console.log('\nimage editor templates (E22):');
    templates = await benchCreativeTemplates(baseUrl, token, workspaceId);
    console.log(
      `  GET /image-editor/templates (${templates.templates} templates): ` +
        `${templates.reqPerSec.toFixed(0)} req/s, p50 ${templates.p50Ms.toFixed(1)} ms, ` +
        `p99 ${templates.p99Ms.toFixed(1)} ms, ${templates.non2xx} non-2xx, ${templates.errors} errors`,
    );
  }
  if (only !== 'creative-templates') {
    console.log('\nimage editor export (1080×1080 PNG, one at a time):');
    exports = await benchCreativeExport(baseUrl, token, workspaceId);
    console.log(
      `  ${exports.exports} exports: p50 ${exports.p50Ms.toFixed(0)} ms, ` +
        `p99 ${exports.p99Ms.toFixed(0)} ms, ${exports.meanBytes} bytes each, ${exports.failures} failures`,
    );
  }
  const failed = Boolean((templates && (templates.non2xx > 0 || templates.errors > 0)) || (exports && exports.failures > 0));
  return { templates, exports, failed };
}

function writeResults(results: object): void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), ...results }, null, 2)}\n`);
  console.log(`\nresults written to ${file}`);
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
