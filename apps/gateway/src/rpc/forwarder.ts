import { Injectable } from '@nestjs/common';
import { IDEMPOTENCY_KEY_HEADER, type CallerRule, type Operation, type RpcRequest } from '@social/contracts';
import { RpcClient } from '@social/platform';
import type { FastifyRequest } from 'fastify';

/** What the gateway sends of an operation's request: typed from the operation's declaration. */
export interface ForwardParts<Params extends string, Query, Body> {
  /** Exactly the path parameters the operation declares (none: nothing may be sent). */
  params?: [Params] extends [never] ? Record<string, never> : Record<Params, string>;
  query?: Query;
  body?: Body;
}

/** Sends an HTTP operation to the service that owns it: `{principal, params, query, body, idempotencyKey}`. */
@Injectable()
export class Forwarder {
  constructor(private readonly rpc: RpcClient) {}

  send<Params extends string, Query, Body, Answer>(
    operation: Operation<CallerRule, Params, Query, Body, Answer>,
    request: FastifyRequest,
    parts: ForwardParts<Params, Query, Body> = {},
  ): Promise<Answer> {
    const idempotencyKey = request.headers[IDEMPOTENCY_KEY_HEADER];
    const envelope: RpcRequest<unknown, unknown, unknown> = {
      principal: request.principal ?? null,
      params: parts.params ?? {},
      query: parts.query ?? {},
      body: parts.body ?? null,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
      clientIp: request.ip,
    };
    return this.rpc.send<Answer>(operation.subject, envelope, { requestId: request.id });
  }
}
