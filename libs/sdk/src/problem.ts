import type { components } from './generated/openapi.js';

/** The RFC 9457 body every failure answers with (docs/decisions.md), as the OpenAPI document describes it. */
export type ProblemBody = components['schemas']['ErrorModel'];
/** Every code the platform answers (the catalogue), and the client's own `unexpected_response`. */
export type ProblemCode = ProblemBody['code'] | 'unexpected_response';
export type ProblemFieldError = NonNullable<ProblemBody['errors']>[number];

/**
 * A refusal from the platform: `status` and `code` (stable, snake_case) are what to branch on;
 * `errors` names each invalid field of a 422. An answer that is not a problem body (a proxy's HTML
 * 502, an empty 404) still becomes one, with `code` `unexpected_response`, so callers catch one type.
 */
export class PlatformProblem extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  /** Equals the response's X-Request-Id: quote it when reporting a fault. */
  readonly requestId: string;
  readonly errors: ProblemFieldError[];
  /** The whole problem body, with the members only some codes carry (`current_revision`, `blockers`, …). */
  readonly body: ProblemBody | UnexpectedBody;

  constructor(body: ProblemBody | UnexpectedBody) {
    super(`${body.status} ${body.code}: ${body.detail}`);
    this.name = 'PlatformProblem';
    this.status = body.status;
    this.code = body.code;
    this.type = body.type;
    this.title = body.title;
    this.detail = body.detail;
    this.requestId = body.request_id;
    this.errors = body.errors ?? [];
    this.body = body;
  }

  /** The problem a failed response carries; `error` is the body openapi-fetch parsed (or its text). */
  static fromResponse(response: Response, error: unknown): PlatformProblem {
    if (isProblemBody(error)) return new PlatformProblem(error);
    const text = typeof error === 'string' ? error.slice(0, 200) : '';
    return new PlatformProblem({
      type: 'about:blank',
      title: response.statusText,
      status: response.status,
      code: 'unexpected_response',
      detail: text || `The server answered ${response.status} without a problem body.`,
      request_id: response.headers.get('x-request-id') ?? '',
    });
  }
}

/** What stands in for a problem body when the answer had none. */
type UnexpectedBody = Omit<ProblemBody, 'code'> & { code: 'unexpected_response' };

function isProblemBody(value: unknown): value is ProblemBody {
  const body = value as ProblemBody | null;
  return !!body && typeof body === 'object' && typeof body.status === 'number' && typeof body.code === 'string';
}
