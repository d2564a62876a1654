import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { DataSource } from 'typeorm';
import { EVENT_STREAM } from '../events/event-stream.js';
import type { Metrics } from './metrics.js';

/** A scrape's query may take this long in PostgreSQL before it is cancelled there. */
const SCRAPE_STATEMENT_TIMEOUT_MS = 1_000;

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
  query(text: string): Promise<Array<{ rows: Array<Record<string, unknown>> }>>;
}

function poolOf(dataSource: DataSource): PgPool | undefined {
  return (dataSource.driver as unknown as { master?: PgPool }).master;
}

/**
 * One read for a scrape, in one round trip: a statement timeout local to its
 * (implicit) transaction, then `sql` (no parameters: a simple query). Returns
 * the rows of `sql`. Cancelled by PostgreSQL past the timeout; rejects while
 * the database is down (the caller's collector then keeps the last values).
 */
export async function scrapeQuery<Row>(dataSource: DataSource, sql: string): Promise<Row[]> {
  const pool = poolOf(dataSource);
  if (!pool || !dataSource.isInitialized) throw new Error('database not open');
  const results = await pool.query(`SET LOCAL statement_timeout = ${SCRAPE_STATEMENT_TIMEOUT_MS}; ${sql}`);
  return results[1].rows as Row[];
}

/** The pg pool behind the service's DataSource: connections open, idle, and callers waiting for one. */
export function watchDatabasePool(metrics: Metrics, dataSource: DataSource): void {
  const connections = metrics.gauge('db_pool_connections', 'Connections of the PostgreSQL pool, by state (total, idle, max).', ['state']);
  const waiting = metrics.gauge(
    'db_pool_waiting_clients',
    'Queries waiting for a free pool connection (pool exhausted when > 0 for long).',
  );
  metrics.onScrape('db_pool', async () => {
    const pool = poolOf(dataSource);
    if (!pool) return;
    connections.set({ state: 'total' }, pool.totalCount);
    connections.set({ state: 'idle' }, pool.idleCount);
    connections.set({ state: 'max' }, pool.options?.max ?? 10);
    waiting.set(pool.waitingCount);
  });
}

/**
 * The service's outbox: events not yet relayed to JetStream and the age of
 * the oldest. Both through the partial index on unpublished rows (ids are
 * UUIDv7, so the smallest id is the oldest row); the count stops at 100 000.
 */
export function watchOutbox(metrics: Metrics, dataSource: DataSource): void {
  const backlog = metrics.gauge(
    'outbox_backlog_events',
    'Durable events written but not yet published to JetStream (counted up to 100000).',
  );
  const age = metrics.gauge('outbox_oldest_age_seconds', 'Age of the oldest unpublished outbox event (0 when none waits).');
  metrics.onScrape('outbox', async () => {
    const [row] = await scrapeQuery<{ backlog: number; age: number | null }>(
      dataSource,
      `SELECT (SELECT count(*) FROM (SELECT 1 FROM outbox_events WHERE published_at IS NULL LIMIT 100000) AS waiting)::int AS backlog,
              (SELECT extract(epoch FROM now() - created_at) FROM outbox_events WHERE published_at IS NULL ORDER BY id
                LIMIT 1)::float8 AS age`,
    );
    backlog.set(row.backlog);
    age.set(Math.max(0, row.age ?? 0));
  });
}

/**
 * Lag of the service's durable consumers, from JetStream's consumer info:
 * events not yet delivered to it (`num_pending`) and delivered but not yet
 * acknowledged (`num_ack_pending`).
 */
export function watchDurableConsumers(metrics: Metrics, nc: NatsConnection, durables: string[]): void {
  if (durables.length === 0) return;
  const pending = metrics.gauge('durable_consumer_pending_events', 'Events in the stream not yet delivered to the durable consumer.', [
    'durable',
  ]);
  const ackPending = metrics.gauge(
    'durable_consumer_ack_pending_events',
    'Events delivered to the durable consumer and not yet acknowledged.',
    ['durable'],
  );
  let manager: Promise<JetStreamManager> | undefined;
  metrics.onScrape('durable_consumers', async () => {
    manager ??= jetstreamManager(nc, { timeout: 1_000 });
    const jsm = await manager.catch((error: unknown) => {
      manager = undefined;
      throw error;
    });
    await Promise.all(
      durables.map(async (durable) => {
        const info = await jsm.consumers.info(EVENT_STREAM, durable);
        pending.set({ durable }, info.num_pending);
        ackPending.set({ durable }, info.num_ack_pending);
      }),
    );
  });
}

/**
 * `social_job_queue_depth{queue}` for one leased queue: `sql` returns one row
 * with `depth`, the entries due now and not finished (claimed or not).
 */
export function watchJobQueue(metrics: Metrics, queue: string, dataSource: DataSource, sql: string): void {
  const depth = jobQueueDepthGauge(metrics);
  metrics.onScrape(`job_queue:${queue}`, async () => {
    const [row] = await scrapeQuery<{ depth: number }>(dataSource, sql);
    depth.set({ queue }, Number(row.depth));
  });
}

/** The one `social_job_queue_depth` gauge, for a collector that reads the depth along with more. */
export function jobQueueDepthGauge(metrics: Metrics) {
  return metrics.gauge('job_queue_depth', 'Entries of a leased work queue that are due now and not finished (claimed or waiting).', [
    'queue',
  ]);
}
