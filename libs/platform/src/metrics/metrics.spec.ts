import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type Socket } from 'node:net';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { watchOutbox } from './collectors.js';
import { Problem } from '../problems/problem.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';
import { Metrics } from './metrics.js';
import { rpcServerOutcome } from './rpc-metrics.js';

describe('Metrics', () => {
  it('labels every series with the service and shares an instrument asked for twice', async () => {
    const metrics = new Metrics('svc', { defaultMetrics: false });
    metrics.counter('things_total', 'Things.', ['kind']).inc({ kind: 'a' });
    metrics.counter('things_total', 'Things.', ['kind']).inc({ kind: 'a' });
    expect(await metrics.scrape()).toContain('social_things_total{kind="a",service="svc"} 2');
  });

  it('answers a scrape whose collectors throw or hang: their gauges keep the last value and the failure is counted', async () => {
    const metrics = new Metrics('svc', { defaultMetrics: false });
    const gauge = metrics.gauge('depth', 'Depth.');
    let mode: 'ok' | 'throw' | 'hang' = 'ok';
    let release = () => undefined as void;
    let runs = 0;
    metrics.onScrape('depth', async () => {
      runs += 1;
      if (mode === 'throw') throw new Error('database down');
      if (mode === 'hang') return new Promise<void>((resolve) => (release = resolve));
      gauge.set(7);
    });
    expect(await metrics.scrape()).toContain('social_depth{service="svc"} 7');
    mode = 'throw';
    const failed = await metrics.scrape();
    expect(failed).toContain('social_depth{service="svc"} 7');
    expect(failed).toContain('social_metrics_collector_failures_total{collector="depth",service="svc"} 1');
    mode = 'hang';
    const started = Date.now();
    const hung = await metrics.scrape();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(hung).toContain('social_metrics_collector_failures_total{collector="depth",service="svc"} 2');
    // Still stuck: not started a second time, counted as failed at once.
    expect(await metrics.scrape()).toContain('social_metrics_collector_failures_total{collector="depth",service="svc"} 3');
    expect(runs).toBe(3);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    mode = 'ok';
    gauge.set(0);
    expect(await metrics.scrape()).toContain('social_depth{service="svc"} 7');
    expect(runs).toBe(4);
  });

  it('tells a problem for the caller from a fault of the service', () => {
    expect(rpcServerOutcome(new Problem(404, 'not_found', 'Gone.'))).toBe('problem');
    expect(rpcServerOutcome(new Problem(503, 'service_unavailable', 'Down.'))).toBe('error');
    expect(rpcServerOutcome(new TypeError('a bug'))).toBe('error');
  });
});

describe('startMetricsServer', () => {
  let server: MetricsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves GET /metrics in the Prometheus text format and nothing else', async () => {
    const metrics = new Metrics('svc', { defaultMetrics: false });
    metrics.counter('hits_total', 'Hits.').inc();
    server = startMetricsServer(0, metrics);
    const base = `http://127.0.0.1:${await server.port}`;
    const scraped = await fetch(`${base}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await scraped.text()).toContain('social_hits_total{service="svc"} 1');
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics/x`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});

describe('scrape-time database reads', () => {
  /** What the collectors use of a DataSource: its pg pool. */
  const dataSourceOn = (port: number) =>
    ({
      isInitialized: true,
      driver: { master: new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/none` }) },
    }) as unknown as DataSource;

  it('answer while PostgreSQL refuses connections or never answers: the failure is counted, the scrape is bounded', async () => {
    // A port that answers nothing (accepts, then silence) and one where nothing listens.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    try {
      for (const port of [closedPort, silentPort]) {
        const metrics = new Metrics('svc', { defaultMetrics: false });
        const dataSource = dataSourceOn(port);
        watchOutbox(metrics, dataSource);
        const started = Date.now();
        const text = await metrics.scrape();
        expect(Date.now() - started).toBeLessThan(3_000);
        expect(text).toContain('social_metrics_collector_failures_total{collector="outbox",service="svc"} 1');
        expect(text).toContain('# TYPE social_outbox_backlog_events gauge');
        void (dataSource.driver as unknown as { master: pg.Pool }).master.end().catch(() => undefined);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
