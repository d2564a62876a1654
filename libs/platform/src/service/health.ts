import { createServer, Server } from 'node:http';
import { Controller, Inject, Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { HealthReply } from '@social/contracts';
import { DataSource } from 'typeorm';

export const SERVICE_NAME = Symbol('SERVICE_NAME');

async function databaseUp(dataSource: DataSource): Promise<boolean> {
  try {
    await dataSource.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** Answers `<service>.health.check` for the gateway's /ready. */
export function createHealthController(pattern: string): Type<unknown> {
  @Controller()
  class HealthController {
    constructor(
      @Inject(SERVICE_NAME) private readonly service: string,
      @Inject(DataSource) private readonly dataSource: DataSource,
    ) {}

    @MessagePattern(pattern)
    async check(): Promise<HealthReply> {
      return { service: this.service, database: await databaseUp(this.dataSource) };
    }
  }
  return HealthController;
}

function withTimeout(check: Promise<boolean>, ms: number): Promise<boolean> {
  return Promise.race([check, new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref())]);
}

/**
 * A tiny HTTP endpoint for Kubernetes probes: 200 while both NATS and
 * PostgreSQL answer, 503 as soon as either is lost.
 */
export function startHealthServer(port: number, nats: NatsConnection, dataSource: DataSource): Server {
  const server = createServer(async (_req, res) => {
    const [db, broker] = await Promise.all([
      databaseUp(dataSource),
      nats.isClosed() ? Promise.resolve(false) : withTimeout(nats.flush().then(() => true, () => false), 1000),
    ]);
    const ok = db && broker;
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: ok ? 'ok' : 'unavailable', database: db, nats: broker }));
  });
  return server.listen(port);
}
