import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { CallerTokenSigner, type Metrics, RpcClient, rpcClientMetrics } from '@social/platform';

export const GATEWAY_NATS = Symbol('GATEWAY_NATS');

class NatsDrainer implements OnApplicationShutdown {
  constructor(@Inject(GATEWAY_NATS) private readonly nats: NatsConnection) {}
  async onApplicationShutdown() {
    await this.nats.drain().catch(() => undefined);
  }
}

/** The gateway's one NATS connection and the request/reply client over it. */
@Global()
@Module({})
export class RpcModule {
  /** `jwtPrivateKey` signs the caller token of every request (docs/security.md). */
  static forConnection(nats: NatsConnection, timeoutMs: number, metrics: Metrics | undefined, jwtPrivateKey: string) {
    return {
      module: RpcModule,
      providers: [
        { provide: GATEWAY_NATS, useValue: nats },
        {
          provide: RpcClient,
          useValue: new RpcClient(
            nats,
            timeoutMs,
            metrics && rpcClientMetrics(metrics),
            CallerTokenSigner.fromPem(jwtPrivateKey, 'gateway'),
          ),
        },
        NatsDrainer,
      ],
      exports: [GATEWAY_NATS, RpcClient],
    };
  }
}
