import { statusesOf, type ProblemCode } from '@social/contracts';
import { STATUS_TITLES } from '@social/platform';

/**
 * The codes any operation refusing with a status may answer, beside those it names (`@Refuses`). A 403 or 409 has no
 * usual code: each operation names its own.
 */
export const USUAL_CODES: Readonly<Partial<Record<number, readonly ProblemCode[]>>> = {
  400: ['malformed_json', 'malformed_body'],
  401: ['unauthenticated', 'invalid_token', 'token_revoked'],
  404: ['not_found'],
  413: ['body_too_large'],
  414: ['uri_too_long'],
  415: ['unsupported_media_type'],
  422: ['validation_failed'],
  429: ['rate_limited'],
  503: ['service_unavailable', 'database_unavailable'],
  504: ['upstream_timeout'],
};

/** An OpenAPI response for a problem status: ErrorModel, its `code` narrowed to what this operation may answer. */
export function problemResponse(status: number, named: readonly ProblemCode[] = []) {
  const codes = [...new Set([...(USUAL_CODES[status] ?? []), ...named])].filter((code) => statusesOf(code).includes(status));
  const errorModel = { $ref: '#/components/schemas/ErrorModel' };
  const schema = codes.length === 0 ? errorModel : { allOf: [errorModel, { type: 'object', properties: { code: { enum: codes } } }] };
  const listed = codes.length === 0 ? '' : `: ${codes.map((code) => `\`${code}\``).join(', ')}`;
  return { description: `${STATUS_TITLES[status]}${listed}`, content: { 'application/problem+json': { schema } } };
}
