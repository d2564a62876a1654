/**
 * `npm run faults`: under a steady load of idempotent writes, kill -9 a service replica, restart NATS,
 * restart PostgreSQL and pause a service; after each, every acknowledged write exists exactly once, every
 * key replays to the same resource, no attempt hung past the gateway's timeout, and the time to recover
 * is printed. Runs on its own PostgreSQL and nats-server (it restarts them), never the machine's.
 */
import { randomBytes } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { SECURITY_ACTION_SUBJECT } from '@social/contracts';
import { connectNats, DEAD_LETTER_STREAM, ensureDeadLetterStream } from '@social/platform';
import pg from 'pg';
import { startFaultEnvironment, type FaultEnvironment } from './environment.js';
import { deliveryKill } from './delivery-fault.js';
import { type Fault, PlatformProcesses, seconds, sleep, type Tenant } from './fault.js';
import { keyRotation } from './key-rotation-fault.js';
import { Attempt, EventLoad, PUBLICATIONS, Session, UPLOAD_SESSIONS, WriteLoad, type LogicalWrite } from './load.js';
import { uploadKill } from './upload-fault.js';

const RPC_TIMEOUT_MS = 5_000;
/** An attempt longer than the gateway's timeout plus this is a hang. */
const HANG_MARGIN_MS = 2_000;
const MAX_IN_FLIGHT = 200;
const RATE_PER_SECOND = 20;
/** Writes that succeed in a row, after the last failure, for the platform to count as recovered. */
const STEADY_SUCCESSES = 5;
const WARMUP_MS = 3_000;
const AFTER_RECOVERY_MS = 3_000;
const RECOVERY_LIMIT_MS = 60_000;
const GIVE_UP_MS = 60_000;
const PAUSE_MS = 8_000;
/** A PostgreSQL outage long enough that a liveness probe on the database would have restarted every pod. */
const LONG_OUTAGE_MS = 90_000;
/** How often the probes are sampled during a fault (as a kubelet would, every few seconds). */
const PROBE_EVERY_MS = 1_000;
const OUTAGE_MS = 3_000;
const BURST = 40;
const BURST_LEAD_MS = 60;
/** One API token (one durable event) this often during each fault. */
const EVENT_INTERVAL_MS = 500;
/** How long committed events may take to become notifications once the load has drained. */
const EVENT_DELIVERY_LIMIT_MS = 30_000;

const log = (line: string) => process.stdout.write(`[faults] ${line}\n`);

interface Verdict {
  name: string;
  passed: boolean;
  line: string;
}

let environment: FaultEnvironment | undefined;
const paused = new Set<number>();

async function main(): Promise<number> {
  const started = Date.now();
  environment = await startFaultEnvironment({ rpcTimeoutMs: RPC_TIMEOUT_MS, log });
  const env = environment;
  log(`stack up in ${seconds(Date.now() - started)} (app logs: ${env.logFile})`);
  // Two publishing replicas: the load of a killed or paused one can move to the other.
  const stackPublishing = env.stack.pids.publishing;
  if (!stackPublishing) throw new Error('the stack has no publishing process');
  const processes = new PlatformProcesses(env);
  for (const [app, pid] of Object.entries(env.stack.pids)) if (pid) processes.add(pid, app);
  const second = await processes.start('publishing', 'publishing (second replica)');
  const tenant = await seed(env.baseUrl);
  log(`two publishing replicas (pids ${stackPublishing}, ${second.child.pid}); load: ${RATE_PER_SECOND} new writes/s (open loop)`);

  const faults: Fault[] = [
    {
      name: 'kill -9 publishing replica',
      inject: async (load) => {
        // A burst first, so the replica dies with writes half done (claimed, not committed) rather than idle.
        load.burst(BURST);
        await sleep(BURST_LEAD_MS);
        await processes.kill(stackPublishing);
        // A supervisor restarts it after a moment.
        await sleep(1_000);
        await processes.start('publishing', 'publishing (replacement)');
      },
    },
    {
      name: 'restart NATS',
      inject: async () => {
        await env.nats.stop();
        await sleep(OUTAGE_MS);
        await env.nats.start();
      },
    },
    {
      name: 'restart PostgreSQL',
      inject: async () => {
        await env.postgres.stop();
        await sleep(OUTAGE_MS);
        await env.postgres.start();
      },
    },
    {
      name: 'kill -9 NATS under load',
      inject: async () => {
        await env.nats.kill();
        await sleep(OUTAGE_MS);
        await env.nats.start();
      },
    },
    probedOutage(env, second.healthPort),
    poisonedEvent(env),
    {
      name: `pause publishing replica ${seconds(PAUSE_MS)}`,
      inject: async () => {
        const pid = second.child.pid!;
        process.kill(pid, 'SIGSTOP');
        paused.add(pid);
        await sleep(PAUSE_MS);
        process.kill(pid, 'SIGCONT');
        paused.delete(pid);
      },
    },
    deliveryKill(env, processes, tenant),
    uploadKill(env, processes, tenant),
    keyRotation(env, processes, tenant),
  ];

  // FAULTS_ONLY=<text>: run only the faults whose name contains it (investigating one).
  const only = process.env['FAULTS_ONLY'];
  const verdicts: Verdict[] = [];
  for (const fault of faults.filter((candidate) => !only || candidate.name.includes(only))) {
    const verdict = await runFault(env, processes, fault, tenant);
    verdicts.push(verdict);
    process.stdout.write(`${verdict.line}\n`);
  }
  const passed = verdicts.filter((verdict) => verdict.passed).length;
  process.stdout.write(`${passed} passed, ${verdicts.length - passed} failed (${seconds(Date.now() - started)} in all)\n`);
  return passed === verdicts.length ? 0 : 1;
}

/** Samples an HTTP probe until stopped: how many answers were 200, and the first 200 after `since`. */
function sampleProbe(url: string) {
  const samples: Array<{ at: number; ok: boolean; outcome: string }> = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = Date.now();
      // As a kubelet with timeoutSeconds: 2 would.
      const outcome = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
        async (res) => (res.status === 200 ? 'ok' : `${res.status} ${(await res.text()).slice(0, 120)}`),
        (error: unknown) => (error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'refused'),
      );
      samples.push({ at, ok: outcome === 'ok', outcome });
      await sleep(PROBE_EVERY_MS);
    }
  })();
  return {
    samples,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/**
 * PostgreSQL stopped for 90 s: liveness (the gateway's /health, a publishing replica's /live) must answer 200 the
 * whole time, so Kubernetes restarts nothing; readiness (/ready) drops while the database is away and recovers.
 */
function probedOutage(env: FaultEnvironment, healthPort: number): Fault {
  let probes: Record<'gatewayLive' | 'serviceLive' | 'serviceReady', ReturnType<typeof sampleProbe>> | undefined;
  let restartedAt = 0;
  return {
    name: `PostgreSQL stopped ${seconds(LONG_OUTAGE_MS)}`,
    giveUpMs: LONG_OUTAGE_MS + GIVE_UP_MS,
    inject: async () => {
      probes = {
        gatewayLive: sampleProbe(`${env.baseUrl}/health`),
        serviceLive: sampleProbe(`http://127.0.0.1:${healthPort}/live`),
        serviceReady: sampleProbe(`http://127.0.0.1:${healthPort}/ready`),
      };
      await env.postgres.stop();
      await sleep(LONG_OUTAGE_MS);
      await env.postgres.start();
      restartedAt = Date.now();
    },
    verify: async () => {
      await sleep(5_000);
      const { gatewayLive, serviceLive, serviceReady } = probes!;
      await Promise.all([gatewayLive.stop(), serviceLive.stop(), serviceReady.stop()]);
      const problems: string[] = [];
      const failedLive = [...gatewayLive.samples, ...serviceLive.samples].filter((sample) => !sample.ok).length;
      const kinds = (samples: Array<{ ok: boolean; outcome: string }>) =>
        summarizeOutcomes(samples.filter((sample) => !sample.ok).map((sample) => sample.outcome));
      if (failedLive > 0) {
        problems.push(
          `${failedLive} liveness answers were not 200 (gateway: ` +
            `${kinds(gatewayLive.samples) || 'none'}; publishing: ${kinds(serviceLive.samples) || 'none'})`,
        );
      }
      const downWhileOut = serviceReady.samples.filter((sample) => sample.at < restartedAt && !sample.ok).length;
      if (downWhileOut === 0) problems.push('readiness never dropped while PostgreSQL was stopped');
      const back = serviceReady.samples.find((sample) => sample.at >= restartedAt && sample.ok);
      if (!back) problems.push('readiness did not recover after PostgreSQL restarted');
      const liveCount = gatewayLive.samples.length + serviceLive.samples.length;
      const figures =
        `liveness ${liveCount - failedLive}/${liveCount} OK, readiness down ${downWhileOut} samples during the outage, ` +
        (back ? `ready again ${seconds(back.at - restartedAt)} after the restart` : 'never ready again');
      return { problems, figures };
    },
  };
}

/**
 * A poisoned event (a payload no handler can read) on a subject notifications consumes, published in the middle of
 * the event load: it must land in the dead-letter stream while the API-token events after it still become notifications.
 */
function poisonedEvent(env: FaultEnvironment): Fault {
  let before = 0;
  return {
    name: 'poisoned event dead-lettered',
    inject: async () => {
      const nc = await connectNats(env.nats.url, 'faults-poison');
      try {
        before = await deadLetterCount(nc);
        await jetstream(nc).publish(SECURITY_ACTION_SUBJECT, 'this is not JSON {');
      } finally {
        await nc.close();
      }
    },
    verify: async () => {
      const nc = await connectNats(env.nats.url, 'faults-poison-check');
      try {
        const started = Date.now();
        let after = await deadLetterCount(nc);
        while (after <= before && Date.now() - started < 30_000) {
          await sleep(250);
          after = await deadLetterCount(nc);
        }
        const letters = after - before;
        return {
          problems: letters === 1 ? [] : [`${letters} dead letters for one poisoned event`],
          figures: `dead-lettered ${letters} (${DEAD_LETTER_STREAM})`,
        };
      } finally {
        await nc.close();
      }
    },
  };
}

function summarizeOutcomes(outcomes: string[]): string {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return [...counts].map(([outcome, count]) => `${outcome} ×${count}`).join(', ');
}

async function deadLetterCount(nc: NatsConnection): Promise<number> {
  await ensureDeadLetterStream(nc);
  const info = await (await jetstreamManager(nc)).streams.info(DEAD_LETTER_STREAM);
  return info.state.messages;
}

async function runFault(env: FaultEnvironment, processes: PlatformProcesses, fault: Fault, tenant: Tenant): Promise<Verdict> {
  const { workspaceId } = tenant;
  const load = new WriteLoad({
    baseUrl: env.baseUrl,
    session: tenant.session,
    workspaceId,
    // Three publications to one upload session.
    targets: [PUBLICATIONS, PUBLICATIONS, PUBLICATIONS, UPLOAD_SESSIONS],
    maxInFlight: MAX_IN_FLIGHT,
    ratePerSecond: RATE_PER_SECOND,
    giveUpMs: fault.giveUpMs ?? GIVE_UP_MS,
    attemptAbortMs: 30_000,
  });
  const eventsUser = await register(env.baseUrl);
  const events = new EventLoad(env.baseUrl, eventsUser.session, EVENT_INTERVAL_MS, 30_000);
  log(`${fault.name}: load running`);
  const aging = ageAbandonedSessions(env.postgres.url, workspaceId);
  load.start();
  events.start();
  await sleep(WARMUP_MS);
  const injectedAt = Date.now();
  let injectError: unknown;
  try {
    await fault.inject(load, events);
  } catch (error) {
    injectError = error;
  }
  log(`${fault.name}: injected and undone in ${seconds(Date.now() - injectedAt)}; waiting for steady writes`);
  const deadline = Date.now() + RECOVERY_LIMIT_MS;
  while (Date.now() < deadline && trailingSuccesses(load.attempts, injectedAt) < STEADY_SUCCESSES) await sleep(200);
  await sleep(AFTER_RECOVERY_MS);
  await Promise.all([load.drain(), events.drain()]);
  await aging.stop();
  const problems: string[] = [];
  if (injectError) problems.push(`injection failed: ${String(injectError)}`);
  const own = fault.verify
    ? await fault.verify().catch((error: unknown) => ({ problems: [`checks failed: ${String(error)}`], figures: '' }))
    : undefined;
  if (own) problems.push(...own.problems);

  const recoveredAt = recoveryTime(load.attempts, injectedAt);
  if (recoveredAt === undefined) problems.push(`no ${STEADY_SUCCESSES} writes in a row succeeded after the fault`);

  const acknowledged = load.writes.filter((write) => write.id);
  const givenUp = load.writes.filter((write) => !write.id && !write.refused);
  const refused = load.writes.filter((write) => write.refused);
  if (givenUp.length) problems.push(`${givenUp.length} writes never acknowledged in ${seconds(GIVE_UP_MS)}`);
  if (refused.length) problems.push(`${refused.length} writes refused (${[...new Set(refused.map((write) => write.refused))].join(', ')})`);

  const stored = await rowsPerKey(env.postgres.url, workspaceId, load.writes);
  const lost = acknowledged.filter((write) => (stored.get(`${write.target.name}:${write.key}`) ?? []).length === 0);
  const duplicated = load.writes.filter((write) => (stored.get(`${write.target.name}:${write.key}`) ?? []).length > 1);
  const wrongId = acknowledged.filter((write) => {
    const ids = stored.get(`${write.target.name}:${write.key}`) ?? [];
    return ids.length === 1 && ids[0] !== write.id;
  });
  if (lost.length) problems.push(`${lost.length} acknowledged writes lost`);
  if (duplicated.length) problems.push(`${duplicated.length} keys stored more than once`);
  if (wrongId.length) problems.push(`${wrongId.length} keys stored under another id than acknowledged`);

  const replayFailures = await replayEach(load, acknowledged);
  if (replayFailures.length)
    problems.push(`${replayFailures.length} replays did not answer the same resource (${replayFailures.slice(0, 3).join('; ')})`);

  const hangBound = RPC_TIMEOUT_MS + HANG_MARGIN_MS;
  const durations = load.attempts.map((attempt) => attempt.endedAt - attempt.startedAt);
  const maxAttempt = Math.max(0, ...durations);
  const hangs = durations.filter((duration) => duration > hangBound).length;
  if (hangs) problems.push(`${hangs} attempts took longer than ${seconds(hangBound)}`);

  const delivery = await eventsDelivered(env.postgres.url, eventsUser.userId);
  if (events.unauthorized) problems.push(`${events.unauthorized} API-token requests answered 401`);
  if (delivery.committed < events.acknowledged) problems.push(`${events.acknowledged - delivery.committed} acknowledged API tokens lost`);
  if (delivery.settledMs === undefined) {
    problems.push(
      `events: ${delivery.committed} committed, ${delivery.delivered} notifications, ` +
        `${delivery.unpublished} still in the outbox after ${seconds(EVENT_DELIVERY_LIMIT_MS)}`,
    );
  }

  // Writes the fault caught (some attempt failed): how long after the injection the last of them was acknowledged.
  const caught = acknowledged.filter((write) => write.attempts > 1);
  const lastCaught = caught.length ? Math.max(...caught.map((write) => write.acknowledgedAt! - injectedAt)) : undefined;

  // A process that died of the fault (rather than being killed by it) did not recover.
  const died = processes.dead();
  if (died.length) problems.push(`processes exited: ${died.join(', ')}`);

  const failedAttempts = load.attempts.filter((attempt) => attempt.status < 200 || attempt.status >= 300);
  const failureKinds = summarize(failedAttempts);
  const passed = problems.length === 0;
  const perTarget = [...new Set(load.writes.map((write) => write.target.name))]
    .map((name) => `${load.writes.filter((write) => write.target.name === name).length} ${name}`)
    .join(', ');
  const recovery =
    (recoveredAt === undefined ? 'did not recover' : `recovered in ${seconds(recoveredAt - injectedAt)}`) +
    (lastCaught === undefined ? '' : ` (${caught.length} retried writes all acknowledged by ${seconds(lastCaught)})`);
  const line =
    `${passed ? 'PASS' : 'FAIL'} ${fault.name} — ${recovery}, ` +
    `${load.writes.length} writes (${perTarget}; ${load.attempts.length} attempts), ` +
    `${lost.length} lost, ${duplicated.length} duplicated, ${replayFailures.length} bad replays, max attempt ${seconds(maxAttempt)}; ` +
    `events ${delivery.delivered}/${delivery.committed} delivered` +
    (delivery.settledMs === undefined ? '' : ` (last ${seconds(delivery.settledMs)} after the load)`) +
    (failureKinds ? `; failed attempts: ${failureKinds}` : '') +
    (own?.figures ? `; ${own.figures}` : '') +
    (passed ? '' : `\n     ${problems.join('\n     ')}`);
  return { name: fault.name, passed, line };
}

/**
 * The load opens upload sessions and never sends their bytes, as a client that gives up would. A workspace may hold
 * 100 open sessions (docs/decisions.md: the next E17 is 429 until the oldest expires), which a long fault's load passes:
 * each is aged past its hour 2 s after it opened, so it no longer counts (the media sweep then marks it expired; its
 * row stays, so the checks still count it once). Only the load's sessions (`fault-…` filenames). Every second, on a
 * connection of its own (the database may be down).
 */
function ageAbandonedSessions(databaseUrl: string, workspaceId: string): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    while (running) {
      const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        await client.query(
          `UPDATE media.media_items SET expires_at = now() WHERE workspace_id = $1 AND status = 'pending' AND expires_at > now()
             AND filename LIKE 'fault-%' AND created_at < now() - interval '2 seconds'`,
          [workspaceId],
        );
      } catch {
        // The database is down (a fault): the next round ages them.
      } finally {
        await client.end().catch(() => undefined);
      }
      await sleep(1_000);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** Successes in a row at the end of the attempts started after `since` (in start order), counting only finished ones. */
function trailingSuccesses(attempts: Attempt[], since: number): number {
  const after = attempts.filter((attempt) => attempt.startedAt >= since).sort((a, b) => a.startedAt - b.startedAt);
  let run = 0;
  for (let i = after.length - 1; i >= 0 && ok(after[i]); i--) run++;
  return run;
}

/**
 * When writes succeeded steadily again: the end of the first success started after the last failed attempt
 * (in start order), provided at least STEADY_SUCCESSES followed without a failure. No failure at all: no outage.
 */
function recoveryTime(attempts: Attempt[], since: number): number | undefined {
  const after = attempts.filter((attempt) => attempt.startedAt >= since).sort((a, b) => a.startedAt - b.startedAt);
  let lastFailure = -1;
  after.forEach((attempt, index) => {
    if (!ok(attempt)) lastFailure = index;
  });
  if (lastFailure === -1) return since;
  const following = after.slice(lastFailure + 1);
  if (following.length < STEADY_SUCCESSES) return undefined;
  return Math.min(...following.slice(0, STEADY_SUCCESSES).map((attempt) => attempt.endedAt));
}

const ok = (attempt: Attempt) => attempt.status >= 200 && attempt.status < 300;

/** e.g. `504 ×12, 503 messaging_unavailable ×40, network ×3`. */
function summarize(attempts: Attempt[]): string {
  const counts = new Map<string, number>();
  for (const attempt of attempts) {
    const kind = attempt.status === 0 ? `network ${attempt.detail ?? ''}`.trim() : `${attempt.status} ${attempt.detail ?? ''}`.trim();
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, count]) => `${kind} ×${count}`).join(', ');
}

/** The resources stored for each write's key (`<target>:<key>` → ids), straight from the services' tables. */
async function rowsPerKey(databaseUrl: string, workspaceId: string, writes: LogicalWrite[]): Promise<Map<string, string[]>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const found = new Map<string, string[]>();
  try {
    for (const target of new Set(writes.map((write) => write.target))) {
      const keys = writes.filter((write) => write.target === target).map((write) => write.key);
      const byStored = new Map(keys.map((key) => [target.stored(key), key]));
      const { rows } = await client.query<{ stored: string; ids: string[] }>(
        `SELECT ${target.keyColumn} AS stored, array_agg(id::text) AS ids FROM ${target.table}
         WHERE workspace_id = $1 AND ${target.keyColumn} = ANY($2) GROUP BY ${target.keyColumn}`,
        [workspaceId, [...byStored.keys()]],
      );
      for (const row of rows) found.set(`${target.name}:${byStored.get(row.stored)}`, row.ids);
    }
    return found;
  } finally {
    await client.end();
  }
}

/** Replays every acknowledged key with its body: the same id, marked `Idempotent-Replayed: true`. */
async function replayEach(load: WriteLoad, acknowledged: LogicalWrite[]): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < acknowledged.length) {
        const write = acknowledged[next++];
        const answer = await load.post(write.target, write.key, write.body, false);
        if (answer.status < 200 || answer.status >= 300 || answer.id !== write.id || !answer.replayed) {
          failures.push(`${write.key}: ${answer.status} ${answer.code ?? ''} id ${answer.id ?? '-'} replayed ${answer.replayed}`);
        }
      }
    }),
  );
  return failures;
}

const post = async <T>(baseUrl: string, path: string, body: object, token?: string): Promise<T> => {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => undefined)) as T;
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
};

/** A fresh user. */
async function register(baseUrl: string): Promise<{ session: Session; userId: string }> {
  const email = `faults-${randomBytes(6).toString('hex')}@example.com`;
  const answer = await post<{ access_token: string; refresh_token: string; user: { id: string } }>(baseUrl, '/auth/register', {
    email,
    password: randomBytes(16).toString('base64url'),
  });
  return { session: new Session(answer.access_token, answer.refresh_token), userId: answer.user.id };
}

/** A fresh user (the instance's first, so its administrator) with an organization and a workspace to write into. */
async function seed(baseUrl: string): Promise<Tenant> {
  const { session } = await register(baseUrl);
  const organization = await post<{ id: string }>(baseUrl, '/organizations', { name: 'Faults' }, session.token);
  const workspace = await post<{ id: string }>(
    baseUrl,
    '/workspaces',
    { organization_id: organization.id, name: 'Fault writes' },
    session.token,
  );
  return { session, workspaceId: workspace.id };
}

interface EventFigures {
  committed: number;
  delivered: number;
  unpublished: number;
  /** From the end of the load until every committed event was a notification; undefined if never. */
  settledMs?: number;
}

/**
 * Every API token accounts committed (the acknowledged ones and any whose answer was lost) carried one durable
 * event: waits until the outbox relayed them all and notifications made exactly one notification of each.
 */
async function eventsDelivered(databaseUrl: string, userId: string): Promise<EventFigures> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = Date.now();
  try {
    for (;;) {
      const { rows } = await client.query<{ committed: number; unpublished: number; delivered: number }>(
        `SELECT (SELECT count(*)::int FROM accounts.api_tokens WHERE user_id = $1) AS committed,
                (SELECT count(*)::int FROM accounts.outbox_events WHERE published_at IS NULL
                  AND payload->>'user_id' = $1::text) AS unpublished,
                (SELECT count(*)::int FROM notifications.notifications WHERE user_id = $1 AND topic = 'security_action') AS delivered`,
        [userId],
      );
      const figures: EventFigures = rows[0];
      if (figures.unpublished === 0 && figures.delivered === figures.committed) return { ...figures, settledMs: Date.now() - started };
      if (Date.now() - started > EVENT_DELIVERY_LIMIT_MS) return figures;
      await sleep(250);
    }
  } finally {
    await client.end();
  }
}

async function shutdown(code: number): Promise<never> {
  // A paused process would ignore SIGTERM until the kill after the grace period.
  for (const pid of paused) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // already gone
    }
  }
  await environment?.stop().catch((error: unknown) => log(`while stopping: ${String(error)}`));
  process.exit(code);
}

process.once('SIGINT', () => void shutdown(130));
process.once('SIGTERM', () => void shutdown(143));
main()
  .then((code) => shutdown(code))
  .catch(async (error: unknown) => {
    process.stderr.write(`[faults] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await shutdown(1);
  });
