/**
 * Webhooks (issue 29): 1,000 renditions published to the sandbox with 3 subscriptions to `rendition.published`
 * on a local receiver that verifies every signature with the standardwebhooks package. Reports the latency
 * from the event (the body's `timestamp`, when publishing recorded the outcome) to the receiver, p50 and p99
 * (target p99 < 2 s), and that every (event, subscription) arrived once: 0 lost, 0 duplicated.
 *
 * It runs a platform of its own (a private nats-server, a temporary database, the built apps), so that
 * WEBHOOK_ALLOWED_ORIGINS lets webhooks reach the receiver on loopback. Publications are scheduled an hour
 * ahead, then made due at one instant.
 */
import { freePort } from '@social/testing';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { release, scheduledRendition, waitPublished } from './posts-media.js';
import { type BenchPlatform, withBenchPlatform } from './private-platform.js';
import { api, inParallel } from './seeding.js';

export const WEBHOOKS_RENDITIONS = Number(process.env.BENCH_WEBHOOKS_RENDITIONS ?? 1000);
const SUBSCRIPTIONS = 3;
const SEED_CONCURRENCY = 8;
export const WEBHOOKS_P99_TARGET_MS = 2_000;

export interface WebhooksFigures {
  renditions: number;
  subscriptions: number;
  expected: number;
  received: number;
  lost: number;
  duplicated: number;
  badSignatures: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** Where the time goes: event → webhooks took it in (read the resource, wrote the deliveries), then → receiver. */
  intakeP50Ms: number;
  intakeP99Ms: number;
  dispatchP50Ms: number;
  dispatchP99Ms: number;
  met: boolean;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

interface Arrival {
  path: string;
  eventId: string;
  latencyMs: number;
  occurredMs: number;
}

/** The receivers: one path per subscription, every request verified and timed. */
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function startReceiver(port: number, secrets: Map<string, string>) {
  const arrivals: Arrival[] = [];
  let badSignatures = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      try {
        const payload = new Webhook(secrets.get(path) ?? '').verify(body, req.headers as Record<string, string>) as { timestamp: string };
        const occurredMs = Date.parse(payload.timestamp);
        arrivals.push({ path, eventId: String(req.headers['webhook-id']), latencyMs: at - occurredMs, occurredMs });
      } catch {
        badSignatures += 1;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { arrivals, badSignatures: () => badSignatures, close: () => new Promise((resolve) => server.close(resolve)) };
}

export async function benchWebhooks(): Promise<WebhooksFigures> {
  console.log(
    `\nwebhooks: ${WEBHOOKS_RENDITIONS} renditions published to the sandbox, ${SUBSCRIPTIONS} subscriptions to rendition.published ` +
      `(target event → receiver p99 < ${WEBHOOKS_P99_TARGET_MS} ms, 0 lost, 0 duplicated)`,
  );
  const receiverPort = await freePort();
  const origin = `http://127.0.0.1:${receiverPort}`;
  const secrets = new Map<string, string>();
  const receiver = await startReceiver(receiverPort, secrets);
  try {
    return await withBenchPlatform(
      'webhooks',
      {
        env: { WEBHOOK_ALLOWED_ORIGINS: origin },
        // BENCH_WEBHOOKS_LOG_LEVEL=debug logs each event taken in and each attempt (a slow tail explained; it costs CPU).
        appEnv: { webhooks: { LOG_LEVEL: process.env.BENCH_WEBHOOKS_LOG_LEVEL ?? 'warn' } },
      },
      (platform) => deliverToReceivers(platform, origin, secrets, receiver),
    );
  } finally {
    await receiver.close();
  }
}

async function deliverToReceivers(
  { baseUrl, db, token, workspaceId, logFile }: BenchPlatform,
  origin: string,
  secrets: Map<string, string>,
  receiver: Receiver,
): Promise<WebhooksFigures> {
  const workspace = { id: workspaceId };
  for (let index = 0; index < SUBSCRIPTIONS; index++) {
    const path = `/receiver-${index}`;
    const created = await api<{ secret: string }>(
      baseUrl,
      token,
      'POST',
      '/webhooks',
      { workspace_id: workspace.id, url: `${origin}${path}`, events: ['rendition.published'] },
      201,
    );
    secrets.set(path, created.secret);
  }
  const sandbox = await api<{ id: string }>(
    baseUrl,
    token,
    'POST',
    '/social-accounts/connect',
    { workspace_id: workspace.id, provider: 'sandbox' },
    201,
  );
  const renditions: string[] = new Array(WEBHOOKS_RENDITIONS);
  await inParallel(WEBHOOKS_RENDITIONS, SEED_CONCURRENCY, async (index) => {
    renditions[index] = (await scheduledRendition(baseUrl, token, workspace.id, sandbox.id, `Bench webhook post ${index}`, [])).renditionId;
  });
  console.log(`  seeded ${WEBHOOKS_RENDITIONS} scheduled renditions; releasing them at once`);
  const started = Date.now();
  await release(db, renditions);
  const outcome = await waitPublished(db, renditions, 600_000);
  const expected = outcome.published * SUBSCRIPTIONS;
  // Deliveries trail the last outcome by a little: wait until every one arrived, or 60 s more.
  for (let waited = 0; receiver.arrivals.length < expected && waited < 60_000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const seconds = (Date.now() - started) / 1000;
  const distinct = new Set(receiver.arrivals.map((arrival) => `${arrival.path} ${arrival.eventId}`));
  const latencies = receiver.arrivals.map((arrival) => arrival.latencyMs).sort((a, b) => a - b);
  const { rows: events } = await db.query<{ id: string; taken_ms: number; occurred_ms: number }>(
    `SELECT id, extract(epoch FROM created_at) * 1000 AS taken_ms,
            extract(epoch FROM (body::json->>'timestamp')::timestamptz) * 1000 AS occurred_ms
       FROM webhooks.webhook_events`,
  );
  const { rows: retried } = await db.query<{ attempts: number; last_error: string; count: number }>(
    `SELECT attempts, last_error, count(*)::int AS count FROM webhooks.webhook_deliveries WHERE attempts <> 1
      GROUP BY attempts, last_error ORDER BY count DESC LIMIT 5`,
  );
  for (const row of retried)
    console.log(`  ${row.count} deliveries took ${row.attempts} attempts (last error: ${row.last_error || 'none'})`);
  // The producer's share: how long publishing's outbox rows waited for its relay to publish them to JetStream.
  const { rows: relayed } = await db.query<{ p50: number; p99: number }>(
    `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY ms)::int AS p50, percentile_disc(0.99) WITHIN GROUP (ORDER BY ms)::int AS p99
       FROM (SELECT extract(epoch FROM published_at - created_at) * 1000 AS ms FROM publishing.outbox_events
              WHERE subject = 'durable.publishing.rendition.published' AND published_at IS NOT NULL) r`,
  );
  console.log(`  publishing's outbox → JetStream p50 ${relayed[0]?.p50 ?? 0} ms, p99 ${relayed[0]?.p99 ?? 0} ms`);
  const takenAt = new Map(events.map((event) => [event.id, Number(event.taken_ms)]));
  const intake = events.map((event) => Math.round(Number(event.taken_ms) - Number(event.occurred_ms))).sort((a, b) => a - b);
  const dispatch = receiver.arrivals
    .map((arrival) => Math.round(arrival.latencyMs - ((takenAt.get(arrival.eventId) ?? 0) - arrival.occurredMs)))
    .sort((a, b) => a - b);
  const figures: WebhooksFigures = {
    renditions: outcome.published,
    subscriptions: SUBSCRIPTIONS,
    expected,
    received: receiver.arrivals.length,
    lost: Math.max(0, expected - distinct.size),
    duplicated: receiver.arrivals.length - distinct.size,
    badSignatures: receiver.badSignatures(),
    latencyP50Ms: percentile(latencies, 50),
    latencyP99Ms: percentile(latencies, 99),
    latencyMaxMs: latencies[latencies.length - 1] ?? 0,
    intakeP50Ms: percentile(intake, 50),
    intakeP99Ms: percentile(intake, 99),
    dispatchP50Ms: percentile(dispatch, 50),
    dispatchP99Ms: percentile(dispatch, 99),
    met: false,
  };
  figures.met =
    outcome.published === WEBHOOKS_RENDITIONS &&
    figures.lost === 0 &&
    figures.duplicated === 0 &&
    figures.badSignatures === 0 &&
    figures.latencyP99Ms < WEBHOOKS_P99_TARGET_MS;
  console.log(
    `  ${figures.received}/${expected} deliveries in ${seconds.toFixed(1)} s: event → receiver p50 ${figures.latencyP50Ms} ms, ` +
      `p99 ${figures.latencyP99Ms} ms, max ${figures.latencyMaxMs} ms; lost ${figures.lost}, duplicated ${figures.duplicated}, ` +
      `bad signatures ${figures.badSignatures} ${figures.met ? '(met)' : '(NOT MET)'}`,
  );
  console.log(`  log: ${logFile}`);
  console.log(
    `  event → taken in p50 ${figures.intakeP50Ms} ms, p99 ${figures.intakeP99Ms} ms; ` +
      `taken in → receiver p50 ${figures.dispatchP50Ms} ms, p99 ${figures.dispatchP99Ms} ms`,
  );
  return figures;
}
