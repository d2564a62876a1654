import { jetstream, JetStreamClient } from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER } from '@social/contracts';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { NotifiedSleep } from '../database/notified-sleep.js';
import { ensureEventStream } from './event-stream.js';
import { outboxChannel } from './outbox.js';

export interface OutboxRelayOptions {
  /** Rows locked and published per transaction. */
  batchSize?: number;
  /** Fallback poll when no NOTIFY arrives (e.g. NATS was down, the listener lost its connection). */
  pollIntervalMs?: number;
  /** First delay after a failed batch; doubles up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  publishTimeoutMs?: number;
}

interface OutboxRow {
  id: string;
  subject: string;
  payload: unknown;
  request_id: string | null;
  trace_context: Record<string, string> | null;
}

/** The producing request's id and trace context, as the consumer reads them (see `consumeDurableEvents`). */
function contextHeaders(row: OutboxRow) {
  const headers = natsHeaders();
  if (row.request_id) headers.set(REQUEST_ID_HEADER, row.request_id);
  for (const [key, value] of Object.entries(row.trace_context ?? {})) headers.set(key, value);
  return headers;
}

/**
 * Publishes a service's `outbox_events` rows to JetStream, oldest first, and
 * marks them published. Each batch is one short transaction holding its rows
 * `FOR UPDATE SKIP LOCKED`, so replicas never publish the same row twice; a
 * row republished after a crash (published, not yet marked) carries its id as
 * Nats-Msg-Id and JetStream drops the duplicate. Order is kept within a relay;
 * with several replicas, batches may interleave, so consumers must not rely on
 * order across events.
 */
export class OutboxRelay {
  private readonly js: JetStreamClient;
  private readonly options: Required<OutboxRelayOptions>;
  private running?: Promise<void>;
  private stopped = false;
  private streamReady = false;
  private failures = 0;
  /** Woken by enqueueEvent's NOTIFY of a commit. */
  private readonly sleep: NotifiedSleep;

  constructor(
    private readonly dataSource: DataSource,
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    this.js = jetstream(nc);
    this.options = { batchSize: 100, pollIntervalMs: 5_000, backoffMs: 500, maxBackoffMs: 30_000, publishTimeoutMs: 5_000, ...options };
    this.sleep = new NotifiedSleep(dataSource, outboxChannel, logger, 'outbox relay');
  }

  start(): void {
    if (this.running) return;
    this.stopped = false;
    this.sleep.resume();
    this.running = this.loop();
  }

  /** Finishes the batch in progress (its transaction commits or rolls back) and stops listening. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.sleep.stop();
    await this.running;
    this.running = undefined;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let delay = this.options.pollIntervalMs;
      let wakeOnNotify = true;
      try {
        await this.sleep.listen();
        const full = await this.publishBatch();
        if (this.failures > 0) this.logger.info({ failures: this.failures }, 'outbox relay publishing again');
        this.failures = 0;
        if (full) continue;
      } catch (error) {
        this.failures += 1;
        this.streamReady = false;
        delay = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (this.failures - 1));
        // A burst of NOTIFYs must not turn a NATS outage into a busy loop.
        wakeOnNotify = false;
        this.logger.warn({ err: error, failures: this.failures, retry_in_ms: delay }, 'outbox relay could not publish; rows stay pending');
      }
      await this.sleep.pause(delay, wakeOnNotify);
    }
    this.sleep.close();
  }

  /** Publishes up to one batch; true when the batch was full (more may be waiting). */
  private async publishBatch(): Promise<boolean> {
    if (!this.streamReady) {
      await ensureEventStream(this.nc);
      this.streamReady = true;
    }
    let failure: unknown;
    let locked = 0;
    await this.dataSource.transaction(async (manager) => {
      const rows: OutboxRow[] = await manager.query(
        `SELECT id, subject, payload, request_id, trace_context FROM outbox_events WHERE published_at IS NULL
         ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.options.batchSize],
      );
      locked = rows.length;
      const published: string[] = [];
      for (const row of rows) {
        try {
          const ack = await this.js.publish(row.subject, JSON.stringify(row.payload), {
            msgID: row.id,
            timeout: this.options.publishTimeoutMs,
            headers: contextHeaders(row),
          });
          if (ack.duplicate) this.logger.info({ event_id: row.id }, 'outbox event was already in the stream');
          published.push(row.id);
        } catch (error) {
          failure = error;
          await manager.query(`UPDATE outbox_events SET attempts = attempts + 1 WHERE id = $1`, [row.id]);
          break;
        }
      }
      if (published.length > 0) {
        await manager.query(`UPDATE outbox_events SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1::uuid[])`, [
          published,
        ]);
        this.logger.debug({ count: published.length }, 'outbox events published');
      }
    });
    if (failure) throw failure;
    return locked === this.options.batchSize;
  }
}
