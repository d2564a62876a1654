import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { CALLER_TOKEN_HEADER, REQUEST_ID_HEADER } from '@social/contracts';
import type { Counter } from 'prom-client';
import type { Logger } from 'pino';
import { CallerTokenError, type CallerTokenVerifier } from '../access/caller-token.js';
import type { Metrics } from '../metrics/metrics.js';
import { problems } from '../problems/problem.js';

/**
 * Runs before every handler of a service (`runService` installs it): the
 * request must carry a caller token that verifies, and the envelope's
 * `principal` is replaced by the one the token names. A missing or forged
 * token is refused with a 401 problem, logged and counted; nothing the sender
 * wrote in the envelope is trusted.
 */
@Injectable()
export class CallerIdentityGuard implements CanActivate {
  private readonly refused?: Counter<'reason'>;

  constructor(
    private readonly verifier: CallerTokenVerifier,
    private readonly logger: Logger,
    metrics?: Metrics,
  ) {
    this.refused = metrics?.counter(
      'bus_requests_refused_total',
      'NATS requests refused before any handler: caller token missing or invalid.',
      ['reason'],
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const nats = context.switchToRpc().getContext<NatsContext>();
    const headers = nats?.getHeaders?.();
    const token = headers?.get(CALLER_TOKEN_HEADER) ?? '';
    const refuse = (reason: 'missing' | 'invalid', detail?: string) => {
      this.refused?.inc({ reason });
      this.logger.warn(
        { pattern: nats?.getSubject?.(), reason, detail, request_id: headers?.get(REQUEST_ID_HEADER) || 'none' },
        'refused a NATS request without a valid caller token',
      );
      return problems.unauthorized('caller_unauthenticated', 'The request does not carry a valid caller token.');
    };
    if (!token) throw refuse('missing');
    let principal;
    try {
      ({ principal } = await this.verifier.verify(token));
    } catch (error) {
      if (error instanceof CallerTokenError) throw refuse('invalid', error.message);
      throw error;
    }
    const data: unknown = context.switchToRpc().getData();
    // Only envelopes carry a principal; plain payloads (lookups between services) have none to replace.
    if (typeof data === 'object' && data !== null && 'principal' in data) (data as { principal: unknown }).principal = principal;
    return true;
  }
}
