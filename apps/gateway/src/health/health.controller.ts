import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NatsConnection } from '@nats-io/transport-node';
import { BACKEND_SERVICES, healthPattern, HealthReply } from '@social/contracts';
import { Probes, Problem, RpcClient } from '@social/platform';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator.js';
import { GATEWAY_NATS } from '../rpc/rpc.module.js';

const READY_TIMEOUT_MS = 1_000;

@ApiExcludeController()
@Public()
@Controller()
export class HealthController {
  private readonly probes: Probes;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_NATS) private readonly nats: NatsConnection,
    probes: Probes,
  ) {
    this.probes = probes.watch({ nats: [nats] });
  }

  /** The gateway process is up (its liveness probe): the event loop turns and NATS has not closed for good. */
  @Get('health')
  async health(@Res({ passthrough: true }) reply: FastifyReply) {
    return this.answer(reply, await this.probes.liveness(), { status: 'ok' });
  }

  /**
   * The gateway's readiness probe: NATS answers within a second. Backends are not checked: a route whose
   * service is missing already answers 503, and one slow service must not take the whole API out of the load balancer.
   */
  @Get('health/ready')
  async healthReady(@Res({ passthrough: true }) reply: FastifyReply) {
    return this.answer(reply, await this.probes.readiness(), { status: 'ready' });
  }

  private answer(reply: FastifyReply, result: Awaited<ReturnType<Probes['liveness']>>, okBody: object) {
    reply.header('cache-control', 'no-store');
    if (!result.ok) {
      throw new Problem(503, 'not_ready', `Not healthy: ${Object.keys(result.body.error ?? {}).join(', ')} down.`, {
        retryAfter: 2,
        extensions: { checks: result.body.details },
      });
    }
    return { ...okBody, checks: result.body.details };
  }

  /**
   * NATS is connected and every service (with its database) answered within a second (for people and the test harness;
   * Kubernetes uses /health/ready).
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const results = await Promise.all(
      BACKEND_SERVICES.map(async (service) => {
        try {
          const answer = await this.rpc.send<HealthReply>(
            healthPattern(service),
            {},
            {
              requestId: 'ready-check',
              timeoutMs: READY_TIMEOUT_MS,
            },
          );
          return [service, answer.database] as const;
        } catch {
          return [service, false] as const;
        }
      }),
    );
    const missing = results.filter(([, ok]) => !ok).map(([service]) => service);
    const natsUp = !this.nats.isClosed();
    if (!natsUp || missing.length > 0) {
      throw new Problem(
        503,
        'not_ready',
        `Not ready: ${natsUp ? '' : 'NATS is not connected; '}waiting for ${missing.join(', ') || 'NATS'}.`,
        {
          retryAfter: 2,
          extensions: { missing_services: missing },
        },
      );
    }
    reply.header('cache-control', 'no-store');
    return { status: 'ready', services: Object.fromEntries(results) };
  }
}
