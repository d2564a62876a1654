import { JetStreamApiError, jetstreamManager, RetentionPolicy, StorageType, StreamConfig } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { jetStreamReplicas } from './jetstream-replicas.js';

/** The one JetStream stream of durable domain events, shared by every service. */
export const EVENT_STREAM = 'PLATFORM_EVENTS';
/** Every durable event subject starts with this; plain NATS subjects stay request/reply. */
export const DURABLE_SUBJECT_PREFIX = 'durable.';

/** Events a consumer gave up on (see `consumeDurableEvents`): `dead.<durable>`, the original subject and error in headers. */
export const DEAD_LETTER_STREAM = 'PLATFORM_DEAD_LETTERS';
export const DEAD_LETTER_SUBJECT_PREFIX = 'dead.';
export const deadLetterSubject = (durable: string): string => `${DEAD_LETTER_SUBJECT_PREFIX}${durable}`;

const DAY_MS = 86_400_000;

const eventStreamConfig = (): Partial<StreamConfig> & { name: string } => ({
  name: EVENT_STREAM,
  subjects: [`${DURABLE_SUBJECT_PREFIX}>`],
  storage: StorageType.File,
  retention: RetentionPolicy.Limits,
  // A service may be down for days (a long incident, a paused deployment) and must still catch up.
  max_age: nanos(7 * DAY_MS),
  // The relay republishes a row whose "published" mark was lost in a crash; the
  // server drops it by its Nats-Msg-Id within this window.
  duplicate_window: nanos(10 * 60_000),
  num_replicas: jetStreamReplicas(),
});

const deadLetterStreamConfig = (): Partial<StreamConfig> & { name: string } => ({
  name: DEAD_LETTER_STREAM,
  subjects: [`${DEAD_LETTER_SUBJECT_PREFIX}>`],
  storage: StorageType.File,
  retention: RetentionPolicy.Limits,
  // Kept long enough for someone to look, fix the handler and replay (tools: `npm run dead-letters`).
  max_age: nanos(30 * DAY_MS),
  duplicate_window: nanos(10 * 60_000),
  num_replicas: jetStreamReplicas(),
});

// "stream name already in use with a different configuration"
const STREAM_NAME_IN_USE = 10058;

/**
 * Creates the event stream or brings its limits up to date. Idempotent and
 * safe when several services start at once: the loser of a create race updates.
 */
export async function ensureEventStream(nc: NatsConnection): Promise<void> {
  await ensureStream(nc, eventStreamConfig());
}

/** The dead-letter stream, created or updated the same way (by every consumer, before its first event). */
export async function ensureDeadLetterStream(nc: NatsConnection): Promise<void> {
  await ensureStream(nc, deadLetterStreamConfig());
}

async function ensureStream(nc: NatsConnection, config: Partial<StreamConfig> & { name: string }): Promise<void> {
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.streams.add(config);
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.code !== STREAM_NAME_IN_USE) throw error;
    await jsm.streams.update(config.name, config);
  }
}
