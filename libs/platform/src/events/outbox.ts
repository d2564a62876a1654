import type { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { DURABLE_SUBJECT_PREFIX } from './event-stream.js';
import { preparedStatement } from '../database/database.js';
import { requestContext } from '../logging/logger.js';
import { currentTraceHeaders } from '../tracing/rpc-tracing.js';

/**
 * The table a service's migration creates to publish durable events with
 * `enqueueEvent` (relayed by `OutboxRelay` when the service runs with `outbox: true`).
 * Checked-in migrations run this text: never edit it, change the table in a new migration.
 */
export const OUTBOX_TABLE_SQL = `
  CREATE TABLE outbox_events (
    id uuid PRIMARY KEY,
    subject text NOT NULL,
    payload jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz,
    attempts integer NOT NULL DEFAULT 0
  );
  -- The relay only looks for unpublished rows; published ones are history.
  CREATE INDEX outbox_events_unpublished_idx ON outbox_events (id) WHERE published_at IS NULL`;

/**
 * The request id and W3C trace context of the request that wrote each event, sent by the relay as
 * message headers so the consumer's logs and trace follow on. A producing service lists the shared
 * migration AddOutboxContext1799000000000 after its own outbox migration (never edit this text either).
 */
export const OUTBOX_CONTEXT_COLUMNS_SQL = `
  ALTER TABLE outbox_events
    ADD COLUMN IF NOT EXISTS request_id text,
    ADD COLUMN IF NOT EXISTS trace_context jsonb`;

/** The LISTEN/NOTIFY channel of one schema's outbox (channels are database-wide). */
export function outboxChannel(schema: string): string {
  return `outbox_events:${schema}`;
}

/** One durable event to record: its subject (under `durable.`) and its payload. */
export interface OutboxEvent {
  subject: string;
  payload: object;
}

/**
 * Records a durable event in the caller's transaction: it is published iff the
 * business change commits. Returns the event id (its Nats-Msg-Id).
 */
export async function enqueueEvent(manager: EntityManager, subject: string, payload: object): Promise<string> {
  const [id] = await enqueueEvents(manager, [{ subject, payload }]);
  return id;
}

/**
 * Records durable events in the caller's transaction, in this order (ids are time-ordered, and the relay
 * publishes by id), with the current request's id and trace context. Returns their ids.
 */
export async function enqueueEvents(manager: EntityManager, events: OutboxEvent[]): Promise<string[]> {
  for (const { subject } of events) {
    if (!subject.startsWith(DURABLE_SUBJECT_PREFIX) || subject.length === DURABLE_SUBJECT_PREFIX.length) {
      throw new Error(`durable event subjects start with "${DURABLE_SUBJECT_PREFIX}": ${subject}`);
    }
  }
  if (events.length === 0) return [];
  const ids = events.map(() => uuidv7());
  const trace = currentTraceHeaders();
  // One named statement: the rows, and the NOTIFY (delivered only on commit, so the relay wakes when the rows are
  // visible). Every delivery writes events inside its publication's lock: a round trip and a plan fewer there.
  await preparedStatement(
    manager,
    'platform.outbox.enqueue',
    `WITH event AS (
       INSERT INTO outbox_events (id, subject, payload, request_id, trace_context)
       SELECT id, subject, payload::jsonb, $4, $5::jsonb FROM unnest($1::uuid[], $2::text[], $3::text[]) AS e (id, subject, payload)
       RETURNING id)
     SELECT pg_notify($6 || current_schema(), '') WHERE EXISTS (SELECT 1 FROM event)`,
    [
      ids,
      events.map((event) => event.subject),
      events.map((event) => JSON.stringify(event.payload)),
      requestContext.getStore()?.requestId ?? null,
      Object.keys(trace).length > 0 ? JSON.stringify(trace) : null,
      outboxChannel(''),
    ],
  );
  return ids;
}
