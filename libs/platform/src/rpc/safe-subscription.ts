import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Logger } from 'pino';

/** Messages dropped because they did not parse or validate, by subject (read by `/metrics` collectors and tests). */
const dropped = new Map<string, number>();

export function droppedMessageCounts(): ReadonlyMap<string, number> {
  return dropped;
}

/** Counts and logs one message that could not be handled; never throws. */
export function recordDroppedMessage(logger: Logger | undefined, subject: string, error: unknown): void {
  dropped.set(subject, (dropped.get(subject) ?? 0) + 1);
  logger?.warn({ subject, err: error instanceof Error ? error.message : String(error) }, 'dropped a malformed NATS message');
}

/**
 * A fan-out subscription whose callback survives anything a sender puts on the
 * subject: the payload is parsed and validated (`parse` throws on a bad one),
 * and a failure is logged and counted, never thrown into the client's reader
 * loop (an exception there closes the whole connection).
 */
export function subscribeSafely<T>(
  nats: NatsConnection,
  subject: string,
  options: { logger?: Logger; parse: (payload: unknown) => T; handle: (value: T, msg: Msg) => void },
): Subscription {
  return nats.subscribe(subject, {
    callback: (error, msg) => {
      if (error) {
        options.logger?.warn({ subject, err: error.message }, 'NATS subscription error');
        return;
      }
      try {
        options.handle(options.parse(msg.json<unknown>()), msg);
      } catch (failure) {
        recordDroppedMessage(options.logger, msg.subject, failure);
      }
    },
  });
}
