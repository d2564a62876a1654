import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { GATEWAY_CONFIG, GatewayConfig } from '../config.js';
import { GATEWAY_LOGGER } from '../logger.js';
import { sendProblem, toProblem } from './problem-response.js';

/** The one place a failure becomes an HTTP response. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { problem, unexpected } = toProblem(exception);
    if (unexpected) this.logger.error({ err: exception, request_id: request.id }, 'unexpected error');
    sendProblem(reply, request, problem, this.config.PUBLIC_BASE_URL);
  }
}
