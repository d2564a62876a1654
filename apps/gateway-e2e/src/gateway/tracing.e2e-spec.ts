import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MediaOperations, TenancyPatterns } from '@social/contracts';
import { IsolatedStack, startIsolatedStack, waitFor } from '@social/testing';
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectedSpan, OtlpCollector, SPAN_KIND, startOtlpCollector } from '../support/otlp-collector.js';

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, one request is one trace across processes: the gateway's HTTP span,
 * its NATS request, the service handling it (and its SQL), and that service's own request to another one.
 * The traced stack has its own NATS and database: on the suites' NATS its replicas would share queue groups
 * with the untraced ones and take only some of the requests.
 */
describe('traces', () => {
  let collector: OtlpCollector;
  let stack: IsolatedStack;
  const logFile = join(tmpdir(), 'platform-e2e', `traced-stack-${process.pid}.log`);

  beforeAll(async () => {
    collector = await startOtlpCollector();
    mkdirSync(join(tmpdir(), 'platform-e2e'), { recursive: true });
    const log = openSync(logFile, 'a');
    stack = await startIsolatedStack('platform_traces', {
      logLevel: 'warn',
      // The suites' stack is already running: a second one boots slowly on a busy machine.
      readyTimeoutMs: 180_000,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100', HEALTH_PORT: '0', METRICS_PORT: '0' },
      stdio: ['ignore', log, log],
    }).catch((error: unknown) => {
      throw new Error(`${String(error)} (app logs: ${logFile})`);
    });
  }, 240_000);

  afterAll(async () => {
    await stack?.stopAll();
    await collector?.stop();
  }, 60_000);

  async function send(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const response = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('one trace holds the gateway, its NATS request, the service, its SQL and the onward request to accounts', async () => {
    const registered = await send('POST', '/auth/register', {
      body: { email: `traced-${randomBytes(6).toString('hex')}@example.com`, password: 'correct horse battery staple' },
    });
    expect(registered.status).toBe(201);
    const token: string = registered.body.access_token;
    const organization = await send('POST', '/organizations', { token, body: { name: 'Traced' } });
    expect(organization.status).toBe(201);
    const workspace = await send('POST', '/workspaces', { token, body: { organization_id: organization.body.id, name: 'Traced' } });
    expect(workspace.status).toBe(201);

    // The caller's own trace context (as a traced proxy in front would send): the trace id to look for.
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    // Media has never seen this workspace: it asks accounts for the caller's access (its cache is empty).
    const listed = await send('GET', `/media?workspace_id=${workspace.body.id}`, {
      token,
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(listed.status).toBe(200);

    const inTrace = () => collector.spans.filter((span) => span.traceId === traceId);
    const find = (predicate: (span: CollectedSpan) => boolean) => inTrace().find(predicate);
    const accessPattern = TenancyPatterns.resolveWorkspaceAccess;
    const isSql = (span: CollectedSpan) =>
      span.attributes['db.system.name'] === 'postgresql' || span.attributes['db.system'] === 'postgresql';
    // Spans leave each process in batches: wait until the deepest hop and both services' SQL have arrived.
    await waitFor(
      'the whole trace at the collector',
      async () =>
        !!find((s) => s.service === 'accounts' && s.name === `process ${accessPattern}`) &&
        !!find((s) => s.service === 'accounts' && isSql(s)) &&
        !!find((s) => s.service === 'media' && isSql(s)) &&
        !!find((s) => s.service === 'gateway' && s.kind === SPAN_KIND.server),
      30_000,
    ).catch((error: unknown) => {
      const arrived = inTrace().map((s) => `${s.service}: ${s.name} (${s.spanId} < ${s.parentSpanId || 'root'})`);
      throw new Error(
        `${String(error)}; spans of the trace: ` +
          `${arrived.join('; ') || 'none'} (${collector.spans.length} spans in all; app logs: ${logFile})`,
      );
    });
    const spans = inTrace();
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    /** Whether `ancestor` is above `span` (pg may add a pool-connect span in between). */
    const descendsFrom = (span: CollectedSpan, ancestor: CollectedSpan): boolean => {
      for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) if (parent === ancestor) return true;
      return false;
    };

    // gateway: the HTTP server span continues the caller's context …
    const gatewayHttp = spans.find((s) => s.service === 'gateway' && s.kind === SPAN_KIND.server)!;
    expect(gatewayHttp.parentSpanId).toBe(callerSpanId);
    // Named after the route fastify matched, not the bare method.
    expect(gatewayHttp.name).toBe('GET /media');
    expect(gatewayHttp.attributes).toMatchObject({ 'http.route': '/media', 'http.response.status_code': 200 });
    // … and its NATS request to media is a CLIENT span under it.
    const gatewaySend = spans.find((s) => s.service === 'gateway' && s.name === `send ${MediaOperations.list.subject}`);
    expect(gatewaySend).toMatchObject({ kind: SPAN_KIND.client, parentSpanId: gatewayHttp.spanId });
    expect(gatewaySend!.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.destination.name': MediaOperations.list.subject,
    });

    // media: a SERVER span whose parent came over NATS in the traceparent header.
    const mediaServer = spans.find((s) => s.service === 'media' && s.name === `process ${MediaOperations.list.subject}`);
    expect(mediaServer).toMatchObject({ kind: SPAN_KIND.server, parentSpanId: gatewaySend!.spanId });
    const mediaSql = spans.filter((s) => s.service === 'media' && isSql(s));
    expect(mediaSql.length).toBeGreaterThan(0);
    for (const sql of mediaSql) expect(descendsFrom(sql, mediaServer!)).toBe(true);

    // The onward hop: media asks accounts, under its own server span.
    const mediaSend = spans.find((s) => s.service === 'media' && s.name === `send ${accessPattern}`);
    expect(mediaSend).toMatchObject({ kind: SPAN_KIND.client, parentSpanId: mediaServer!.spanId });
    const accountsServer = spans.find((s) => s.service === 'accounts' && s.name === `process ${accessPattern}`);
    expect(accountsServer).toMatchObject({ kind: SPAN_KIND.server, parentSpanId: mediaSend!.spanId });
    const accountsSql = spans.filter((s) => s.service === 'accounts' && isSql(s));
    expect(accountsSql.length).toBeGreaterThan(0);
    for (const sql of accountsSql) expect(descendsFrom(sql, accountsServer!)).toBe(true);

    // Every span of the trace hangs from the caller's span: nothing started a trace of its own.
    for (const span of spans) expect(span === gatewayHttp || descendsFrom(span, gatewayHttp)).toBe(true);
    // Readiness probes are not traced (neither the gateway's /ready nor the health checks it asks each service),
    // and only OTLP/JSON trace exports arrived.
    expect(collector.spans.filter((s) => s.attributes['http.route'] === '/ready' || s.name.endsWith('.health.check'))).toEqual([]);
    expect(collector.refused).toEqual([]);
  }, 90_000);
});
