import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { REQUEST_ID_HEADER } from '@social/contracts';
import { Observable } from 'rxjs';
import { requestContext } from '../logging/logger.js';

/** Runs each handler inside the gateway's request id, so every log line carries it. */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const nats = context.switchToRpc().getContext<NatsContext>();
    const requestId = nats?.getHeaders?.()?.get(REQUEST_ID_HEADER) || 'none';
    return new Observable((subscriber) =>
      requestContext.run({ requestId }, () => next.handle().subscribe(subscriber)),
    );
  }
}
