import { Injectable } from '@nestjs/common';
import { IDEMPOTENCY_KEY_HEADER, type CallerRule, type Operation, type RpcRequest } from '@social/contracts';
import { RpcClient } from '@social/platform';
import type { FastifyRequest } from 'fastify';

/** What the gateway sends of an operation's request: typed from the operation's declaration. */
export interface ForwardParts<Params extends string, Query, Body> {
  params?: Record<Params, string>;
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
    parts?: ForwardParts<Params, Query, Body>,
  ): Promise<Answer>;
  /** @deprecated TRANSITION: a bare subject, until every controller forwards an operation. */
  send<Answer>(subject: string, request: FastifyRequest, parts?: ForwardParts<string, unknown, unknown>): Promise<Answer>;
  send(
    operation: Operation<CallerRule, string, unknown, unknown, unknown> | string,
    request: FastifyRequest,
    parts: ForwardParts<string, unknown, unknown> = {},
  ): Promise<unknown> {
    const idempotencyKey = request.headers[IDEMPOTENCY_KEY_HEADER];
    const envelope: RpcRequest<unknown, unknown, unknown> = {
      principal: request.principal ?? null,
      params: parts.params ?? {},
      query: parts.query ?? {},
      body: parts.body ?? null,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
      clientIp: request.ip,
    };
    return this.rpc.send(typeof operation === 'string' ? operation : operation.subject, envelope, { requestId: request.id });
  }
}
