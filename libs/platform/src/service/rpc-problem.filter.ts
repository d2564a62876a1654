import { ArgumentsHost, Catch, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';
import type { Logger } from 'pino';
import { databaseProblem } from '../problems/database-errors.js';
import { Problem, problems } from '../problems/problem.js';

/**
 * Turns whatever a handler throws into a problem payload for the gateway.
 * Anything that is not a `Problem` is a bug: it is logged here with the request
 * id, and the caller only learns that an internal error occurred.
 */
@Catch()
export class RpcProblemFilter implements RpcExceptionFilter<unknown> {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    if (exception instanceof Problem) return throwError(() => exception.toPayload());
    const fromDatabase = databaseProblem(exception);
    if (fromDatabase) {
      this.logger.warn({ err: exception, code: fromDatabase.code }, 'database refused the request');
      return throwError(() => fromDatabase.toPayload());
    }
    this.logger.error({ err: exception }, 'unhandled error in handler');
    return throwError(() => problems.internal().toPayload());
  }
}
