import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { REQUEST_ID_HEADER } from '@social/contracts';
import type { Logger } from 'pino';
import { Observable, tap } from 'rxjs';
import { requestContext } from '../logging/logger.js';
import { inRpcServerSpan } from '../tracing/rpc-tracing.js';
import { SERVICE_LOGGER } from './tokens.js';

/**
 * Runs each handler inside the gateway's request id, so every log line carries
 * it, and logs each handled message at debug level (pattern, outcome, time);
 * with tracing on, inside a SERVER span continuing the caller's trace.
 */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  constructor(@Inject(SERVICE_LOGGER) private readonly logger: Logger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const nats = context.switchToRpc().getContext<NatsContext>();
    const requestId = nats?.getHeaders?.()?.get(REQUEST_ID_HEADER) || 'none';
    const pattern = nats?.getSubject?.() ?? 'unknown';
    const started = performance.now();
    const done = (outcome: string) => {
      if (this.logger.isLevelEnabled('debug')) {
        this.logger.debug({ pattern, outcome, ms: Math.round(performance.now() - started) }, 'handled');
      }
    };
    return new Observable((subscriber) =>
      requestContext.run({ requestId }, () =>
        next
          .handle()
          .pipe(tap({ complete: () => done('ok'), error: () => done('problem') }))
          .subscribe(subscriber),
      ),
    ).pipe(inRpcServerSpan(pattern, nats?.getHeaders?.()));
  }
}
