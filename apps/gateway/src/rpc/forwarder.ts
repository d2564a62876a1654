import { Inject, Injectable } from '@nestjs/common';
import { IDEMPOTENCY_KEY_HEADER, type CallerRule, type Operation, type RpcRequest } from '@social/contracts';
import { RpcClient } from '@social/platform';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { baseUrlOf } from '../http/base-url.js';
import { PassedOnJson } from '../http/spliced-json.js';

/** What the gateway sends of an operation's request: typed from the operation's declaration. */
export interface ForwardParts<Params extends string, Query, Body> {
  /** Exactly the path parameters the operation declares (none: nothing may be sent). */
  params?: [Params] extends [never] ? Record<string, never> : Record<Params, string>;
  query?: Query;
  body?: Body;
}

/** Sends an HTTP operation to the service that owns it: `{principal, params, query, body, idempotencyKey, clientIp, baseUrl}`. */
@Injectable()
export class Forwarder {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  send<Params extends string, Query, Body, Answer>(
    operation: Operation<CallerRule, Params, Query, Body, Answer>,
    request: FastifyRequest,
    parts: ForwardParts<Params, Query, Body> = {},
  ): Promise<Answer> {
    return this.rpc.send<Answer>(operation.subject, this.envelope(request, parts), { requestId: request.id });
  }

  /**
   * For a large answer the gateway passes on as the service wrote it (its URLs already absolute: the service is given
   * `baseUrl`): not parsed here, nor serialized again; the schema interceptor only puts `$schema` in front.
   */
  async passOn<Params extends string, Query, Body>(
    operation: Operation<CallerRule, Params, Query, Body, unknown>,
    request: FastifyRequest,
    parts: ForwardParts<Params, Query, Body> = {},
  ): Promise<PassedOnJson> {
    return new PassedOnJson(await this.rpc.sendForBytes(operation.subject, this.envelope(request, parts), { requestId: request.id }));
  }

  private envelope(request: FastifyRequest, parts: ForwardParts<string, unknown, unknown>): RpcRequest<unknown, unknown, unknown> {
    const idempotencyKey = request.headers[IDEMPOTENCY_KEY_HEADER];
    return {
      principal: request.principal ?? null,
      params: parts.params ?? {},
      query: parts.query ?? {},
      body: parts.body ?? null,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
      clientIp: request.ip,
      baseUrl: baseUrlOf(request, this.config.PUBLIC_BASE_URL),
    };
  }
}
