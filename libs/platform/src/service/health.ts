import { createServer, Server } from 'node:http';
import { Controller, Inject, Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { HealthReply } from '@social/contracts';
import { Probes } from '../health/probes.js';

export const SERVICE_NAME = Symbol('SERVICE_NAME');

/** Answers `<service>.health.check` for the gateway's /ready: the service's readiness (database and NATS, with timeouts). */
export function createHealthController(pattern: string): Type<unknown> {
  @Controller()
  class HealthController {
    constructor(
      @Inject(SERVICE_NAME) private readonly service: string,
      private readonly probes: Probes,
    ) {}

    @MessagePattern(pattern)
    async check(): Promise<HealthReply> {
      const readiness = await this.probes.readiness();
      return { service: this.service, database: readiness.body.details['database']?.status === 'up' };
    }
  }
  return HealthController;
}

/**
 * The HTTP endpoint of the Kubernetes probes (HEALTH_PORT):
 * - `/live`: the process only (event loop, NATS connection not closed), so a PostgreSQL outage restarts nothing;
 * - `/ready` (also `/` and `/healthz`): PostgreSQL and NATS answer within a second each.
 * 200 with terminus' report, 503 with the same report naming what is down.
 */
export function startHealthServer(port: number, probes: Probes): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const probe =
      path === '/live' ? probes.liveness() : path === '/ready' || path === '/' || path === '/healthz' ? probes.readiness() : undefined;
    if (!probe) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"not_found"}');
      return;
    }
    probe.then(
      (result) => {
        res.writeHead(result.ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(result.body));
      },
      (error: unknown) => {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'error', error: { probe: { status: 'down', message: String(error) } } }));
      },
    );
  });
  return server.listen(port);
}
