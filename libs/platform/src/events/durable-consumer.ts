import { AckPolicy, ConsumerConfig, ConsumerMessages, DeliverPolicy, jetstream, JetStreamApiError, jetstreamManager, JsMsg } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { ensureEventStream, EVENT_STREAM } from './event-stream.js';
import { inDurableEventSpan } from '../tracing/rpc-tracing.js';

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
  /** Events being handled (concurrency > 1); each settles by itself (ack or nak) and is awaited before a round ends. */
  const inFlight = new Set<Promise<void>>();
  const logger = options.logger.child({ durable: options.durable });
  const config = consumerConfig(options, ackWaitMs);
  await ensureConsumer(nc, config);

  let stopped = false;
  let messages: ConsumerMessages | undefined;

  const handle = async (msg: JsMsg) => {
    let payload: unknown;
    try {
      payload = msg.json();
    } catch {
      logger.error({ subject: msg.subject, seq: msg.seq }, 'durable event payload is not JSON; terminated');
      // No reason text: nats-server before 2.10 does not understand "+TERM <reason>".
      msg.term();
      return;
    }
    // A long purge is still in progress: keep the event from going to another replica meanwhile.
    const progress = setInterval(() => msg.working(), ackWaitMs / 3);
    try {
      const eventId = msg.headers?.get('Nats-Msg-Id') || `stream-${msg.seq}`;
      await inDurableEventSpan(msg.subject, eventId, () => options.handle(msg.subject, payload, { eventId, seq: msg.seq }));
    } catch (error) {
      const delivery = msg.info.deliveryCount;
      const delay = Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (delivery - 1));
      logger.warn({ err: error, subject: msg.subject, seq: msg.seq, delivery, retry_in_ms: delay }, 'durable event handler failed; will retry');
      msg.nak(delay);
      return;
    } finally {
      clearInterval(progress);
    }
    // Confirmed by the server, so a lost ack shows up here rather than as a silent redelivery.
    await msg.ackAck().catch((error) => logger.warn({ err: error, seq: msg.seq }, 'durable event ack was not confirmed'));
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

function consumerConfig(options: DurableConsumerOptions, ackWaitMs: number): Partial<ConsumerConfig> {
  const [first, ...more] = options.subjects;
  if (!first) throw new Error(`durable consumer ${options.durable} needs at least one subject`);
  return {
    durable_name: options.durable,
    // nats-server before 2.10 knows only the single filter_subject.
    ...(more.length === 0 ? { filter_subject: first } : { filter_subjects: options.subjects }),
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(ackWaitMs),
    deliver_policy: DeliverPolicy.All,
    // Never give up on an event: a failing handler is retried (with backoff) until it is fixed.
    max_deliver: -1,
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
