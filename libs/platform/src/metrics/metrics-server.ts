import { createServer } from 'node:http';
import type { Metrics } from './metrics.js';

export interface MetricsServer {
  /** The port it listens on (the one asked for, or the one given for 0). */
  readonly port: Promise<number>;
  close(): Promise<void>;
}

/**
 * Prometheus' `GET /metrics` on a port of its own, apart from the API (never
 * reachable through the ingress) and from the health port; anything else is 404.
 */
export function startMetricsServer(port: number, metrics: Metrics, host = '127.0.0.1'): MetricsServer {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.scrape().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  const listening = new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    // Bound to METRICS_HOST: loopback unless a deployment opens it to its scraper (docs/security.md).
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
  // A port taken is reported by the caller's log, not an unhandled rejection.
  listening.catch(() => undefined);
  return {
    port: listening,
    close: () =>
      new Promise<void>((resolve) => {
        // Prometheus keeps its connection open between scrapes: it must not hold the process up.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
