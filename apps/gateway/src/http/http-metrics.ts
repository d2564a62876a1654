import type { FastifyInstance } from 'fastify';
import type { Metrics } from '@social/platform';

/** The route label of a request no route matched (404s of any path): one series, whatever the path. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Requests by method, route TEMPLATE (`/publications/:id`, never the path:
 * ids would make a series per resource) and status; server errors (5xx)
 * counted apart; latency as a histogram.
 */
export function recordHttpMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  const labels = ['method', 'route', 'status'] as const;
  const requests = metrics.counter(
    'http_requests_total',
    'HTTP requests answered by the gateway, by method, route template and status.',
    labels,
  );
  const errors = metrics.counter(
    'http_request_errors_total',
    'HTTP requests the gateway answered with a server error (5xx), by method and route template.',
    ['method', 'route'],
  );
  const duration = metrics.histogram(
    'http_request_duration_seconds',
    'Time to answer an HTTP request, by method, route template and status.',
    labels,
  );
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = String(reply.statusCode);
    requests.inc({ method: request.method, route, status });
    duration.observe({ method: request.method, route, status }, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) errors.inc({ method: request.method, route });
    done();
  });
}
