import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NatsConnection } from '@nats-io/transport-node';
import { BACKEND_SERVICES, healthPattern, HealthReply } from '@social/contracts';
import { Problem, RpcClient } from '@social/platform';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator.js';
import { GATEWAY_NATS } from '../rpc/rpc.module.js';

const READY_TIMEOUT_MS = 1_000;

@ApiExcludeController()
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_NATS) private readonly nats: NatsConnection,
  ) {}

  /** The gateway process is up. */
  @Get('health')
  health() {
    return { status: 'ok' };
  }

  /** NATS is connected and every service (with its database) answered within a second. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const results = await Promise.all(
      BACKEND_SERVICES.map(async (service) => {
        try {
          const answer = await this.rpc.send<HealthReply>(healthPattern(service), {}, {
            requestId: 'ready-check',
            timeoutMs: READY_TIMEOUT_MS,
          });
          return [service, answer.database] as const;
        } catch {
          return [service, false] as const;
        }
      }),
    );
    const missing = results.filter(([, ok]) => !ok).map(([service]) => service);
    const natsUp = !this.nats.isClosed();
    if (!natsUp || missing.length > 0) {
      throw new Problem(503, 'not_ready', `Not ready: ${natsUp ? '' : 'NATS is not connected; '}waiting for ${missing.join(', ') || 'NATS'}.`, {
        retryAfter: 2,
        extensions: { missing_services: missing },
      });
    }
    reply.header('cache-control', 'no-store');
    return { status: 'ready', services: Object.fromEntries(results) };
  }
}
