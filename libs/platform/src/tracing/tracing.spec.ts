import { describe, expect, it } from '@jest/globals';
import { propagation, trace } from '@opentelemetry/api';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { createRequire } from 'node:module';
import { lastValueFrom, of } from 'rxjs';
import { inRpcClientSpan, inRpcServerSpan } from './rpc-tracing.js';
import { recordHttpRoute, startTracing, tracingServiceName } from './tracing.js';

describe('tracing without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('starts nothing: no tracer provider, no propagator, no patched http, and RPC spans are no-ops', async () => {
    expect(startTracing({})).toBeUndefined();
    expect(startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();

    const span = trace.getTracer('spec').startSpan('probe');
    expect(span.isRecording()).toBe(false);
    expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
    expect(propagation.fields()).toEqual([]);
    const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');
    expect((http.Server.prototype.emit as { __wrapped?: boolean }).__wrapped).toBeUndefined();

    // A request still goes out, with no trace context in its headers; a handler still runs.
    const headers = natsHeaders();
    await expect(inRpcClientSpan('accounts.profile.get', headers, async () => 'answer')).resolves.toBe('answer');
    expect(headers.has('traceparent')).toBe(false);
    await expect(lastValueFrom(of(1, 2).pipe(inRpcServerSpan('accounts.profile.get', headers)))).resolves.toBe(2);
    expect(() => recordHttpRoute('/media')).not.toThrow();
  });
});

describe('tracingServiceName', () => {
  it('is the app folder of the entry script unless OTEL_SERVICE_NAME says otherwise', () => {
    expect(tracingServiceName({}, '/app/apps/media/dist/main.js')).toBe('media');
    expect(tracingServiceName({}, 'C:\\repo\\apps\\gateway\\dist\\main.js')).toBe('gateway');
    expect(tracingServiceName({ OTEL_SERVICE_NAME: 'media-eu' }, '/app/apps/media/dist/main.js')).toBe('media-eu');
    expect(tracingServiceName({}, '/usr/bin/some-script.js')).toBe('social-platform');
  });
});
