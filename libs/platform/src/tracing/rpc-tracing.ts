import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import type { MsgHdrs } from '@nats-io/transport-node';
import { healthPattern } from '@social/contracts';
import { Observable, type OperatorFunction } from 'rxjs';
import { Problem } from '../problems/problem.js';

// Without a started SDK (tracing.ts) every call below is an @opentelemetry/api no-op.
const tracer = trace.getTracer('@social/platform');

const HEALTH_SUFFIX = healthPattern('');

/** W3C `traceparent`/`tracestate` travel as NATS message headers, next to the request id. */
export const natsHeaderSetter: TextMapSetter<MsgHdrs> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

export const natsHeaderGetter: TextMapGetter<MsgHdrs | undefined> = {
  keys: (carrier) => carrier?.keys() ?? [],
  // nats answers '' for a missing header.
  get: (carrier, key) => carrier?.get(key) || undefined,
};

/** Messaging semantic conventions: the subject is the destination, the operation is `send` or `process`. */
const messagingAttributes = (pattern: string, operation: 'send' | 'process') => ({
  'messaging.system': 'nats',
  'messaging.destination.name': pattern,
  'messaging.operation.name': operation,
  'messaging.operation.type': operation,
});

/**
 * A problem the caller is told about: 5xx (and anything that is not a problem) marks the span failed;
 * a 4xx is a refusal the service meant (like a 404 on an HTTP server span), so it is recorded, not an error.
 */
export function recordOutcome(span: Span, error: unknown): void {
  if (error instanceof Problem) {
    span.setAttributes({ 'rpc.problem.status': error.status, 'rpc.problem.code': error.code });
    if (error.status < 500) return;
    span.setStatus({ code: SpanStatusCode.ERROR, message: `${error.status} ${error.code}` });
    return;
  }
  span.setAttribute('error.type', error instanceof Error ? error.name : 'unknown');
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** One NATS request as a CLIENT span (`send <pattern>`) whose context leaves in `headers`. */
export function inRpcClientSpan<T>(pattern: string, headers: MsgHdrs, send: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(`send ${pattern}`, { kind: SpanKind.CLIENT, attributes: messagingAttributes(pattern, 'send') }, (span) => {
    propagation.inject(context.active(), headers, natsHeaderSetter);
    return settled(span, send);
  });
}

/**
 * One durable event handled by a consumer, as a CONSUMER span (`process <subject>`) its SQL and requests nest
 * under. It continues the trace of the request that wrote the event (the outbox row keeps its `traceparent`,
 * the relay sends it as a header); an event without one starts a trace of its own.
 */
export function inDurableEventSpan<T>(
  subject: string,
  eventId: string,
  headers: MsgHdrs | undefined,
  handle: () => Promise<T>,
): Promise<T> {
  const attributes = { ...messagingAttributes(subject, 'process'), 'messaging.message.id': eventId };
  const parent = propagation.extract(ROOT_CONTEXT, headers, natsHeaderGetter);
  return tracer.startActiveSpan(`process ${subject}`, { kind: SpanKind.CONSUMER, attributes }, parent, (span) => settled(span, handle));
}

/** The active trace context as W3C headers (`traceparent`, `tracestate`), to store beside an outbox row. */
export function currentTraceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

async function settled<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    recordOutcome(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs a Nest handler's Observable inside a SERVER span (`process <pattern>`) continuing the caller's trace
 * from the message headers: the whole subscription runs in its context, so SQL and onward requests nest under it.
 */
export function inRpcServerSpan<T>(pattern: string, headers: MsgHdrs | undefined): OperatorFunction<T, T> {
  // Readiness probes ask every service every few seconds: a trace each would bury real traffic.
  if (pattern.endsWith(HEALTH_SUFFIX)) return (source) => source;
  return (source) =>
    new Observable<T>((subscriber) => {
      const parent = propagation.extract(ROOT_CONTEXT, headers, natsHeaderGetter);
      const span = tracer.startSpan(
        `process ${pattern}`,
        { kind: SpanKind.SERVER, attributes: messagingAttributes(pattern, 'process') },
        parent,
      );
      let ended = false;
      const end = () => {
        if (!ended) span.end();
        ended = true;
      };
      const subscription = context.with(trace.setSpan(parent, span), () =>
        source.subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => {
            recordOutcome(span, error);
            end();
            subscriber.error(error);
          },
          complete: () => {
            end();
            subscriber.complete();
          },
        }),
      );
      // Unsubscribed before an outcome (the app is closing): the span still ends.
      return () => {
        subscription.unsubscribe();
        end();
      };
    });
}
