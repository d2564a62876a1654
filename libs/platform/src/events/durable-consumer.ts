import {
  AckPolicy,
  ConsumerConfig,
  ConsumerMessages,
  DeliverPolicy,
  jetstream,
  JetStreamApiError,
  jetstreamManager,
  JsMsg,
} from '@nats-io/jetstream';
import { headers as natsHeaders, nanos, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER } from '@social/contracts';
import { deadLetterSubject, ensureDeadLetterStream, ensureEventStream, EVENT_STREAM } from './event-stream.js';
import { inDurableEventSpan } from '../tracing/rpc-tracing.js';
import { requestContext } from '../logging/logger.js';

/** A replayed dead letter keeps its original event id here (its Nats-Msg-Id must differ, or JetStream would drop it as a duplicate). */
export const EVENT_ID_HEADER = 'Platform-Event-Id';
/** Headers of a dead letter: where it came from and why it was given up. */
export const DEAD_LETTER_HEADERS = {
  subject: 'Dead-Subject',
  durable: 'Dead-Durable',
  eventId: 'Dead-Event-Id',
  streamSeq: 'Dead-Stream-Seq',
  deliveries: 'Dead-Deliveries',
  error: 'Dead-Error',
} as const;

export interface DurableConsumerOptions {
  /**
   * The JetStream durable name, per service and purpose (`notifications-organization-deleted`).
   * Replicas of a service share it, so each event is handled once per service.
   */
  durable: string;
  /** Filter subjects under `durable.>`. */
  subjects: string[];
  /**
   * Handles one event. Delivery is at least once (a redelivery follows a crash
   * or a timeout after the work was done), so handlers must be idempotent:
   * handling the same event twice leaves the same state as handling it once.
   * Throwing makes the event come back later.
   */
  handle(subject: string, payload: unknown, meta: DurableEventMeta): Promise<void>;
  logger: Logger;
  /** Redelivery delay after the first failure; doubles per delivery up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** How long an event may go unacknowledged (the process died) before JetStream redelivers it; a running handler extends it. */
  ackWaitMs?: number;
  /** Events handled at once by this process (default 1: one after the other). Order is never guaranteed anyway. */
  concurrency?: number;
  /**
   * Deliveries before a failing event is given up: it then goes to the dead-letter stream (`dead.<durable>`)
   * with the error, and the events after it keep flowing. Default 10 (about 4 minutes of retries).
   */
  maxDeliver?: number;
  /** Told of each event sent to the dead-letter stream (the service counts them in its metrics). */
  onDeadLetter?(subject: string): void;
}

/** Where an event came from: its `Nats-Msg-Id` (the outbox row id, stable across redeliveries) and stream sequence. */
export interface DurableEventMeta {
  /** The producer's event id (`Nats-Msg-Id`); `stream-<seq>` when the publisher set none. */
  eventId: string;
  seq: number;
}

export interface DurableConsumer {
  /** Stops pulling, lets the event in progress finish, hands buffered ones back. */
  stop(): Promise<void>;
}

// "consumer already exists" (with another configuration), "consumer name already in use"
const CONSUMER_EXISTS = new Set([10148, 10013]);

/**
 * Consumes `PLATFORM_EVENTS` through a durable pull consumer: every event
 * since the stream began (deliver all), even those published while this
 * service was down, acknowledged only once the handler has succeeded.
 */
export async function consumeDurableEvents(nc: NatsConnection, options: DurableConsumerOptions): Promise<DurableConsumer> {
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const maxDeliver = Math.max(2, Math.floor(options.maxDeliver ?? 10));
  /** Events being handled (concurrency > 1); each settles by itself (ack or nak) and is awaited before a round ends. */
  const inFlight = new Set<Promise<void>>();
  const logger = options.logger.child({ durable: options.durable });
  const config = consumerConfig(options, ackWaitMs, maxDeliver);
  await ensureConsumer(nc, config);
  await ensureDeadLetterStream(nc);

  /** Copies the event to `dead.<durable>` with the error, then terminates it, so the events after it keep flowing. */
  const deadLetter = async (msg: JsMsg, eventId: string, reason: string) => {
    const headers = natsHeaders();
    for (const [key, value] of msg.headers ?? []) for (const one of value) headers.append(key, one);
    headers.set(DEAD_LETTER_HEADERS.subject, msg.subject);
    headers.set(DEAD_LETTER_HEADERS.durable, options.durable);
    headers.set(DEAD_LETTER_HEADERS.eventId, eventId);
    headers.set(DEAD_LETTER_HEADERS.streamSeq, String(msg.seq));
    headers.set(DEAD_LETTER_HEADERS.deliveries, String(msg.info.deliveryCount));
    // Header values are one line; a stack trace stays in the logs.
    headers.set(DEAD_LETTER_HEADERS.error, reason.replace(/[\r\n]+/g, ' ').slice(0, 1_000));
    headers.set('Nats-Msg-Id', `dead:${options.durable}:${msg.seq}`);
    try {
      await jetstream(nc).publish(deadLetterSubject(options.durable), msg.data, { headers, timeout: 5_000 });
    } catch (error) {
      // Not recorded: keep the event (one spare delivery, see consumerConfig) and try again.
      logger.error({ err: error, subject: msg.subject, seq: msg.seq }, 'could not dead-letter the event; it will be delivered again');
      msg.nak(retryDelayMs);
      return;
    }
    logger.error(
      { subject: msg.subject, seq: msg.seq, event_id: eventId, deliveries: msg.info.deliveryCount, reason },
      'durable event dead-lettered',
    );
    options.onDeadLetter?.(msg.subject);
    msg.term();
  };

  let stopped = false;
  let messages: ConsumerMessages | undefined;

  const handle = async (msg: JsMsg) => {
    const eventId = msg.headers?.get(EVENT_ID_HEADER) || msg.headers?.get('Nats-Msg-Id') || `stream-${msg.seq}`;
    let payload: unknown;
    try {
      payload = msg.json();
    } catch {
      // Retrying cannot help: straight to the dead letters.
      await deadLetter(msg, eventId, 'payload is not JSON');
      return;
    }
    // A long purge is still in progress: keep the event from going to another replica meanwhile.
    const progress = setInterval(() => msg.working(), ackWaitMs / 3);
    try {
      // The request that caused the event: its id in the handler's logs, its trace continued (outbox headers).
      const requestId = msg.headers?.get(REQUEST_ID_HEADER) || `event-${eventId}`;
      await requestContext.run({ requestId }, () =>
        inDurableEventSpan(msg.subject, eventId, msg.headers, () => options.handle(msg.subject, payload, { eventId, seq: msg.seq })),
      );
    } catch (error) {
      const delivery = msg.info.deliveryCount;
      if (delivery >= maxDeliver) {
        logger.warn({ err: error, subject: msg.subject, seq: msg.seq, delivery }, 'durable event handler failed on its last delivery');
        await deadLetter(msg, eventId, error instanceof Error ? `${error.name}: ${error.message}` : String(error));
        return;
      }
      const delay = Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (delivery - 1));
      logger.warn(
        { err: error, subject: msg.subject, seq: msg.seq, delivery, retry_in_ms: delay },
        'durable event handler failed; will retry',
      );
      msg.nak(delay);
      return;
    } finally {
      clearInterval(progress);
    }
    // Not confirmed: a confirmed ack is a request through nats-server for every event of every consumer (in a burst, each
    // published rendition's three consumers). A lost ack brings the event again, which handlers tolerate; stopping
    // drains the connection, which sends the acks still buffered.
    msg.ack();
  };

  const run = async () => {
    while (!stopped) {
      try {
        const consumer = await jetstream(nc).consumers.get(EVENT_STREAM, options.durable);
        messages = await consumer.consume({ max_messages: Math.max(10, concurrency * 2) });
        void watch(messages).catch(() => undefined);
        for await (const msg of messages) {
          // Buffered after stop(): back to the stream at once, for a replica that is still running.
          if (stopped) msg.nak();
          else if (concurrency === 1) await handle(msg);
          else {
            const task: Promise<void> = handle(msg)
              .catch((error: unknown) => logger.warn({ err: error, seq: msg.seq }, 'durable event could not be settled'))
              .finally(() => inFlight.delete(task));
            inFlight.add(task);
            if (inFlight.size >= concurrency) await Promise.race(inFlight);
          }
        }
      } catch (error) {
        if (stopped) break;
        logger.warn({ err: error }, 'durable consumer interrupted; resuming');
      } finally {
        // The events in progress finish (and are acknowledged) before the round ends or stop() returns.
        await Promise.allSettled([...inFlight]);
      }
      if (!stopped) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        if (stopped) break;
        await ensureConsumer(nc, config).catch((error) => logger.warn({ err: error }, 'could not re-create the durable consumer'));
      }
    }
  };

  // The client recovers from reconnects by itself; a consumer or stream that
  // vanished (NATS lost its storage) is re-created by ending this round.
  const watch = async (current: ConsumerMessages) => {
    for await (const status of current.status()) {
      if (status.type === 'consumer_not_found' || status.type === 'consumer_deleted' || status.type === 'stream_not_found') {
        logger.warn({ status: status.type }, 'durable consumer is gone; re-creating it');
        current.stop();
        return;
      }
    }
  };

  const running = run();
  logger.info({ subjects: options.subjects }, 'consuming durable events');
  return {
    stop: async () => {
      if (stopped) return running;
      stopped = true;
      await messages?.close();
      await running;
    },
  };
}

function consumerConfig(options: DurableConsumerOptions, ackWaitMs: number, maxDeliver: number): Partial<ConsumerConfig> {
  const [first, ...more] = options.subjects;
  if (!first) throw new Error(`durable consumer ${options.durable} needs at least one subject`);
  return {
    durable_name: options.durable,
    // nats-server before 2.10 knows only the single filter_subject.
    ...(more.length === 0 ? { filter_subject: first } : { filter_subjects: options.subjects }),
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(ackWaitMs),
    deliver_policy: DeliverPolicy.All,
    // The handler gives up at maxDeliver (dead letter); one spare delivery lets a failed dead-lettering try again.
    // The backoff schedule is the nak delay of each failed delivery (`retryDelayMs` doubling to `maxRetryDelayMs`),
    // not the consumer's `backoff`: with it, nats-server 2.9 replaces those delays and the ack wait by its list.
    max_deliver: maxDeliver + 1,
    max_ack_pending: 100,
  };
}

async function ensureConsumer(nc: NatsConnection, config: Partial<ConsumerConfig>): Promise<void> {
  await ensureEventStream(nc);
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.consumers.add(EVENT_STREAM, config);
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || !CONSUMER_EXISTS.has(error.code)) throw error;
    const { durable_name: _name, deliver_policy: _policy, ...changeable } = config;
    await jsm.consumers.update(EVENT_STREAM, config.durable_name!, changeable);
  }
}
