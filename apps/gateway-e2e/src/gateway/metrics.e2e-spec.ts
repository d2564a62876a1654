import { beforeAll, describe, expect, it } from '@jest/globals';
import { BACKEND_SERVICES, PublicationOperations } from '@social/contracts';
import { APPS } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { call, eventually } from '../support/api.js';
import { publicationWhen, publishNow, settled } from '../support/delivery.js';
import { metricsPort, type Sample, scrape, series, total } from '../support/metrics.js';
import { connectSandboxAccount, createPublication } from '../support/publishing.js';
import { createTenant, type Tenant } from '../support/tenancy.js';

/** Every sample's single value for `name` (with `labels`), asserting there is exactly one series. */
function only(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = series(samples, name, labels);
  expect(found.map((sample) => sample.labels)).toHaveLength(1);
  return found[0].value;
}

describe('metrics: /metrics on every process (issue 16)', () => {
  let tenant: Tenant;
  /** Collector failures of every process before this suite: none may be added while it runs. */
  const failuresBefore = new Map<string, number>();

  beforeAll(async () => {
    tenant = await createTenant();
    for (const app of APPS) failuresBefore.set(app, total(await scrape(app), 'social_metrics_collector_failures_total'));
  });

  it('every process serves the text format on its own port, each series labelled with its service, Node defaults included', async () => {
    for (const app of APPS) {
      const samples = await scrape(app);
      expect(samples.filter((sample) => sample.labels.service !== app)).toEqual([]);
      expect(series(samples, 'process_cpu_user_seconds_total')).toHaveLength(1);
      expect(series(samples, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
    }
  });

  it('the gateway counts requests by route template (never the path), status and latency; unknown routes under one label', async () => {
    const route = { method: 'GET', route: '/publications/:id', status: '404' };
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    const gatewayBefore = await scrape('gateway');
    const publishingBefore = await scrape('publishing');
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) expect((await call('GET', `/publications/${id}`, { token: tenant.owner.token })).status).toBe(404);
    const unknownPath = `/no-such-route-${randomUUID()}`;
    expect((await call('GET', unknownPath)).status).toBe(404);

    const gateway = await scrape('gateway');
    expect(total(gateway, 'social_http_requests_total', route) - total(gatewayBefore, 'social_http_requests_total', route)).toBe(3);
    expect(
      total(gateway, 'social_http_request_duration_seconds_count', route) -
        total(gatewayBefore, 'social_http_request_duration_seconds_count', route),
    ).toBe(3);
    expect(total(gateway, 'social_http_requests_total', unmatched) - total(gatewayBefore, 'social_http_requests_total', unmatched)).toBe(1);
    // A 404 is not a server error.
    expect(total(gateway, 'social_http_request_errors_total', { route: '/publications/:id' })).toBe(
      total(gatewayBefore, 'social_http_request_errors_total', { route: '/publications/:id' }),
    );
    const labelValues = gateway.flatMap((sample) => Object.values(sample.labels));
    expect(labelValues.filter((value) => ids.some((id) => value.includes(id)) || value.includes(unknownPath))).toEqual([]);

    // The call behind it, on both ends: the gateway's client and the publishing service's handler.
    const rpc = { pattern: PublicationOperations.get.subject, outcome: 'problem' };
    expect(
      total(gateway, 'social_rpc_client_duration_seconds_count', rpc) -
        total(gatewayBefore, 'social_rpc_client_duration_seconds_count', rpc),
    ).toBe(3);
    const publishing = await scrape('publishing');
    expect(
      total(publishing, 'social_rpc_server_duration_seconds_count', rpc) -
        total(publishingBefore, 'social_rpc_server_duration_seconds_count', rpc),
    ).toBe(3);
    expect(series(publishing, 'social_rpc_server_duration_seconds_bucket', { ...rpc, le: '+Inf' })).toHaveLength(1);
    // No other service handled it.
    for (const app of BACKEND_SERVICES.filter((service) => service !== 'publishing')) {
      expect(series(await scrape(app), 'social_rpc_server_duration_seconds_count', { pattern: PublicationOperations.get.subject })).toEqual(
        [],
      );
    }
  });

  it('every service reports its database pool', async () => {
    for (const app of BACKEND_SERVICES) {
      const samples = await scrape(app);
      // An idle pool closes its connections after 10 s: total may be 0, never above the pool size (10 by default).
      const open = only(samples, 'social_db_pool_connections', { state: 'total' });
      expect(only(samples, 'social_db_pool_connections', { state: 'max' })).toBe(10);
      expect(open).toBeLessThanOrEqual(10);
      expect(only(samples, 'social_db_pool_connections', { state: 'idle' })).toBeLessThanOrEqual(open);
      expect(only(samples, 'social_db_pool_waiting_clients')).toBeGreaterThanOrEqual(0);
    }
  });

  it('a sandbox publish moves the delivery outcome counter; scheduler, queue, outbox and consumer lag gauges follow it', async () => {
    const before = await scrape('publishing');
    expect(only(before, 'social_scheduler_due_renditions')).toBeGreaterThanOrEqual(0);
    expect(only(before, 'social_scheduler_late_renditions')).toBeGreaterThanOrEqual(0);
    expect(only(before, 'social_scheduler_claimed_renditions')).toBeGreaterThanOrEqual(0);
    expect(only(before, 'social_job_queue_depth', { queue: 'publishing_deliveries' })).toBeGreaterThanOrEqual(0);
    expect(only(before, 'social_outbox_backlog_events')).toBeGreaterThanOrEqual(0);
    expect(only(before, 'social_durable_consumer_pending_events', { durable: 'publishing-organization-deleted' })).toBeGreaterThanOrEqual(
      0,
    );

    const target = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const publication = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: 'Counted by the scheduler' });
    expect((await publishNow(tenant.owner.token, publication.id, { expected_revision: 1, account_ids: [target.id] })).status).toBe(200);
    expect((await publicationWhen(tenant.owner.token, publication.id, settled)).status).toBe('published');

    const published = { outcome: 'published' };
    const after = await scrape('publishing');
    expect(
      total(after, 'social_scheduler_delivery_outcomes_total', published) -
        total(before, 'social_scheduler_delivery_outcomes_total', published),
    ).toBeGreaterThanOrEqual(1);
    expect(series(after, 'social_scheduler_delivery_outcomes_total', { outcome: 'needs_attention' })).toHaveLength(1);
    // The published event leaves through the outbox, and insights consumes it.
    await eventually(async () => {
      const publishing = await scrape('publishing');
      expect(only(publishing, 'social_outbox_backlog_events')).toBe(0);
      expect(only(publishing, 'social_outbox_oldest_age_seconds')).toBe(0);
      const insights = await scrape('insights');
      expect(only(insights, 'social_durable_consumer_pending_events', { durable: 'insights-rendition-published' })).toBe(0);
      // Another suite's event still retrying (nak'ed with a delay) stays ack-pending: only present, not 0.
      expect(
        only(insights, 'social_durable_consumer_ack_pending_events', { durable: 'insights-rendition-published' }),
      ).toBeGreaterThanOrEqual(0);
    }, 10_000);
  });

  it('every leased queue reports its depth', async () => {
    expect(only(await scrape('insights'), 'social_job_queue_depth', { queue: 'insights_sync_jobs' })).toBeGreaterThanOrEqual(0);
    expect(only(await scrape('notifications'), 'social_job_queue_depth', { queue: 'notifications_email' })).toBeGreaterThanOrEqual(0);
    for (const app of ['accounts', 'creative', 'media']) {
      expect(only(await scrape(app), 'social_outbox_backlog_events')).toBeGreaterThanOrEqual(0);
    }
  });

  it('/metrics is not served on the API port; the metrics port answers nothing but GET /metrics', async () => {
    const api = await call('GET', '/metrics');
    expect(api.status).toBe(404);
    expect(JSON.stringify(api.body)).not.toContain('social_');
    const port = metricsPort('gateway');
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics/more`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('no scrape-time collector failed while the suite ran', async () => {
    for (const app of APPS)
      expect([app, total(await scrape(app), 'social_metrics_collector_failures_total')]).toEqual([app, failuresBefore.get(app)]);
  });
});
