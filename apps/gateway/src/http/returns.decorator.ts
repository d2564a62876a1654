import { applyDecorators, HttpCode, SetMetadata, Type } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { schemaNameOf, statusesOf as statusesOfCode, type ProblemCode } from '@social/contracts';
import { problemResponse } from '../docs/problem-responses.js';

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
 * Documents the problems an operation may answer, as application/problem+json (ErrorModel, its `code` an enum of
 * the ones listed). Give a status for its usual codes (e.g. 422: validation_failed) or the catalogue's codes themselves
 * (`'revision_conflict'`: 409). Every authenticated route also answers 401 and 429, and every forwarded one 503/504.
 */
export function Refuses(...refusals: Array<number | ProblemCode>) {
  const codesByStatus = new Map<number, ProblemCode[]>();
  for (const refusal of refusals) {
    if (typeof refusal === 'number') codesByStatus.set(refusal, codesByStatus.get(refusal) ?? []);
    else for (const status of statusesOfCode(refusal)) codesByStatus.set(status, [...(codesByStatus.get(status) ?? []), refusal]);
  }
  return applyDecorators(...[...codesByStatus].map(([status, codes]) => ApiResponse({ status, ...problemResponse(status, codes) })));
}
