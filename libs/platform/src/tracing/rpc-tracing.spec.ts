import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { firstValueFrom, lastValueFrom, Observable, throwError } from 'rxjs';
import { Problem } from '../problems/problem.js';
import { currentTraceHeaders, inDurableEventSpan, inRpcClientSpan, inRpcServerSpan } from './rpc-tracing.js';

interface FinishedSpan {
  name: string;
  kind: SpanKind;
  spanContext(): { traceId: string; spanId: string };
  parentSpanContext?: { spanId: string };
  status: { code: SpanStatusCode; message?: string };
  attributes: Record<string, unknown>;
}

/** The caller and the service in one process: the trace context still crosses only through the NATS headers. */
describe('trace context over NATS headers', () => {
  const finished: FinishedSpan[] = [];
  const sdk = new NodeSDK({
    textMapPropagator: new W3CTraceContextPropagator(),
    metricReaders: [],
    logRecordProcessors: [],
    autoDetectResources: false,
    spanProcessors: [
      {
        onStart: () => undefined,
        onEnd: (span: FinishedSpan) => void finished.push(span),
        forceFlush: async () => undefined,
        shutdown: async () => undefined,
      } as never,
    ],
  });
  beforeAll(() => sdk.start());
  afterAll(() => sdk.shutdown());

  it('the service span is a child of the client span, and work inside the handler is a child of the service span', async () => {
    const headers = natsHeaders();
    let insideHandler: string | undefined;
    await inRpcClientSpan('media.library.list', headers, async () => {
      // What the service does with the message it received.
      const handler = new Observable<string>((subscriber) => {
        setTimeout(() => {
          insideHandler = trace.getActiveSpan()?.spanContext().spanId;
          trace.getTracer('spec').startSpan('pg.query').end();
          subscriber.next('page');
          subscriber.complete();
        }, 5);
      });
      return firstValueFrom(handler.pipe(inRpcServerSpan('media.library.list', headers)));
    });
    expect(headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const client = finished.find((s) => s.name === 'send media.library.list')!;
    const server = finished.find((s) => s.name === 'process media.library.list')!;
    const query = finished.find((s) => s.name === 'pg.query')!;
    expect(client.kind).toBe(SpanKind.CLIENT);
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(client.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.destination.name': 'media.library.list',
      'messaging.operation.type': 'send',
    });
    expect(server.spanContext().traceId).toBe(client.spanContext().traceId);
    expect(server.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    expect(insideHandler).toBe(server.spanContext().spanId);
    expect(query.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
  });

  it('a 5xx problem or an error fails the spans; a 4xx refusal is recorded without failing them', async () => {
    finished.length = 0;
    const refuse = (problem: Error) =>
      inRpcClientSpan('accounts.profile.get', natsHeaders(), () =>
        lastValueFrom(throwError(() => problem).pipe(inRpcServerSpan('accounts.profile.get', undefined))),
      );
    await expect(refuse(new Problem(404, 'not_found', 'No such user.'))).rejects.toThrow('No such user.');
    await expect(refuse(new TypeError('boom'))).rejects.toThrow('boom');
    const [notFoundServer, notFoundClient, errorServer, errorClient] = finished;
    expect(notFoundServer.status.code).toBe(SpanStatusCode.UNSET);
    expect(notFoundServer.attributes).toMatchObject({ 'rpc.problem.status': 404, 'rpc.problem.code': 'not_found' });
    expect(notFoundClient.status.code).toBe(SpanStatusCode.UNSET);
    expect(errorServer.status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
    expect(errorClient.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a durable event is handled in a CONSUMER span of its own trace, even inside another span', async () => {
    finished.length = 0;
    await inRpcClientSpan('elsewhere', natsHeaders(), () =>
      inDurableEventSpan('durable.accounts.organization.deleted', 'event-1', undefined, async () =>
        trace.getTracer('spec').startSpan('pg.query').end(),
      ),
    );
    const [query, consumer, elsewhere] = finished;
    expect(consumer).toMatchObject({ name: 'process durable.accounts.organization.deleted', kind: SpanKind.CONSUMER });
    expect(consumer.attributes).toMatchObject({ 'messaging.message.id': 'event-1', 'messaging.operation.type': 'process' });
    expect(consumer.parentSpanContext).toBeUndefined();
    expect(consumer.spanContext().traceId).not.toBe(elsewhere.spanContext().traceId);
    expect(query.parentSpanContext?.spanId).toBe(consumer.spanContext().spanId);
  });

  it("a durable event whose outbox row kept the trace context continues the producing request's trace", async () => {
    finished.length = 0;
    let stored: Record<string, string> = {};
    await inRpcClientSpan('publishing.publications.create', natsHeaders(), async () => {
      stored = currentTraceHeaders();
    });
    const [producer] = finished;
    expect(stored['traceparent']).toContain(producer.spanContext().traceId);
    const headers = natsHeaders();
    for (const [key, value] of Object.entries(stored)) headers.set(key, value);
    await inDurableEventSpan('durable.publishing.rendition.published', 'event-2', headers, async () => undefined);
    const consumer = finished[1];
    expect(consumer.spanContext().traceId).toBe(producer.spanContext().traceId);
    expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
  });

  it('readiness health checks are not traced', async () => {
    finished.length = 0;
    await lastValueFrom(new Observable<number>((s) => (s.next(1), s.complete())).pipe(inRpcServerSpan('media.health.check', undefined)));
    expect(finished).toEqual([]);
  });
});
