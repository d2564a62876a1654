import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { HttpReply, IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENT_REPLAYED_HEADER } from '@social/contracts';
import type { FastifyReply } from 'fastify';

/**
 * Applies a service's HttpReply to the response (its status, and
 * `Idempotent-Replayed: true` on a replay) and returns the body, which the
 * schema interceptor then decorates like any other.
 */
export function unwrapHttpReply<T>(reply: FastifyReply, answer: HttpReply<T>): T {
  reply.status(answer.status);
  if (answer.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return answer.body;
}

/** Documents the optional `Idempotency-Key` header of a create (docs/decisions.md) and the answers it adds. */
export function AcceptsIdempotencyKey() {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
      description:
        'Makes a retry safe: within 24 h the same key from the same caller for the same workspace and operation, with the same body, ' +
        'answers the first response again (same status and body, header `Idempotent-Replayed: true`) and creates nothing. ' +
        'The same key with another body is 422 `idempotency_key_reused`; ' +
        'while the first request runs, 409 `idempotency_in_flight` (with Retry-After). ' +
        'Empty or longer than 200 characters: 422 at `header.idempotency-key`.',
    }),
    ApiResponse({
      status: 409,
      description: 'Conflict: `idempotency_in_flight`',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ErrorModel' } } },
    }),
  );
}
