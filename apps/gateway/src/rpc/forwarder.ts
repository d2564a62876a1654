import { Injectable } from '@nestjs/common';
import { IDEMPOTENCY_KEY_HEADER, type RpcRequest } from '@social/contracts';
import { RpcClient } from '@social/platform';
import type { FastifyRequest } from 'fastify';

export interface ForwardParts {
  body?: unknown;
  query?: Record<string, unknown>;
  params?: Record<string, string>;
}

/** Sends an HTTP operation to the service that owns it: `{principal, params, query, body, idempotencyKey}`. */
@Injectable()
export class Forwarder {
  constructor(private readonly rpc: RpcClient) {}

  send<T>(pattern: string, request: FastifyRequest, parts: ForwardParts = {}): Promise<T> {
    const idempotencyKey = request.headers[IDEMPOTENCY_KEY_HEADER];
    const envelope: RpcRequest = {
      principal: request.principal ?? null,
      params: parts.params ?? {},
      query: parts.query ?? {},
      body: parts.body ?? null,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
      clientIp: request.ip,
    };
    return this.rpc.send<T>(pattern, envelope, { requestId: request.id });
  }
}
