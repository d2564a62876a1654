import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { GATEWAY_CONFIG, GatewayConfig } from '../config.js';
import { baseUrlOf, schemaUrl } from './base-url.js';
import { RESPONSE_SCHEMA } from './returns.decorator.js';
import { PassedOnJson, SplicedJson } from './spliced-json.js';

/** Puts `$schema` first on every named top-level response object (docs/decisions.md), spliced answers included. */
@Injectable()
export class SchemaInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const name = this.reflector.get<string | undefined>(RESPONSE_SCHEMA, context.getHandler());
    if (!name) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const $schema = schemaUrl(baseUrlOf(request, this.config.PUBLIC_BASE_URL), name);
    return next.handle().pipe(
      map((body) => {
        if (body instanceof SplicedJson || body instanceof PassedOnJson) {
          context.switchToHttp().getResponse<FastifyReply>().type('application/json; charset=utf-8');
          return body instanceof SplicedJson ? body.text({ $schema }) : body.bytes({ $schema });
        }
        return body && typeof body === 'object' && !Array.isArray(body) ? { $schema, ...body } : body;
      }),
    );
  }
}
