import { applyDecorators, HttpCode, SetMetadata, Type } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { schemaNameOf } from '@social/contracts';
import { STATUS_TITLES } from '@social/platform';

export const RESPONSE_SCHEMA = 'gateway:responseSchema';

/**
 * Declares what an operation answers: the status, the OpenAPI response, and
 * the schema name whose URL goes into the body's `$schema`.
 */
export function Returns(type: Type<unknown>, status = 200) {
  return applyDecorators(HttpCode(status), ApiResponse({ status, type }), SetMetadata(RESPONSE_SCHEMA, schemaNameOf(type)));
}

/** A 204 answer with no body. */
export function ReturnsNothing() {
  return applyDecorators(HttpCode(204), ApiResponse({ status: 204, description: 'No Content' }));
}

/**
 * Documents the problems an operation may answer (always ErrorModel, as
 * application/problem+json). Every authenticated route also answers 401 and
 * 429, and every forwarded one 503/504; list the rest here.
 */
export function Refuses(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: STATUS_TITLES[status],
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ErrorModel' } } },
      }),
    ),
  );
}
