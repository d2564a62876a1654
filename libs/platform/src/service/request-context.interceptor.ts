import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, Optional } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { REQUEST_ID_HEADER } from '@social/contracts';
import type { Logger } from 'pino';
import { Observable, tap } from 'rxjs';
import { requestContext } from '../logging/logger.js';
import { Metrics } from '../metrics/metrics.js';
import { rpcServerMetrics, rpcServerOutcome, type RpcServerOutcome } from '../metrics/rpc-metrics.js';
import { inRpcServerSpan } from '../tracing/rpc-tracing.js';
import { SERVICE_LOGGER } from './tokens.js';

/**
 * Runs each handler inside the gateway's request id, so every log line carries
 * it, logs each handled message at debug level (pattern, outcome, time),
 * times it by pattern and outcome and, with tracing on, runs it inside a
 * SERVER span continuing the caller's trace.
 */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  private readonly metrics?: ReturnType<typeof rpcServerMetrics>;

  constructor(
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Optional() @Inject(Metrics) metrics?: Metrics,
  ) {
    this.metrics = metrics && rpcServerMetrics(metrics);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const nats = context.switchToRpc().getContext<NatsContext>();
    const requestId = nats?.getHeaders?.()?.get(REQUEST_ID_HEADER) || 'none';
    const pattern = nats?.getSubject?.() ?? 'unknown';
    const started = performance.now();
    const done = (outcome: RpcServerOutcome) => {
      const ms = performance.now() - started;
      this.metrics?.observe(pattern, outcome, ms / 1000);
      if (this.logger.isLevelEnabled('debug')) this.logger.debug({ pattern, outcome, ms: Math.round(ms) }, 'handled');
    };
    return new Observable((subscriber) =>
      requestContext.run({ requestId }, () =>
        next
          .handle()
          .pipe(tap({ complete: () => done('ok'), error: (error: unknown) => done(rpcServerOutcome(error)) }))
          .subscribe(subscriber),
      ),
    ).pipe(inRpcServerSpan(pattern, nats?.getHeaders?.()));
  }
}
