import type { FieldError, ProblemCode, ProblemCodeWith, ProblemPayload } from '@social/contracts';

/** RFC 9110 reason phrases (507: RFC 4918's): the `title` of every problem. */
export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  // RFC 4918's phrase: RFC 9110 has no status for a server out of room.
  507: 'Insufficient Storage',
};

/**
 * A refusal with a stable `code`, thrown by services and the gateway alike and
 * rendered once, by the gateway, as `application/problem+json`.
 */
export class Problem extends Error {
  /** `code` comes from the catalogue (libs/contracts, PROBLEM_CATALOGUE) and must be one answered with `status`. */
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly options: Omit<ProblemPayload, 'status' | 'code' | 'detail'> = {},
  ) {
    super(detail);
    this.name = 'Problem';
  }

  toPayload(): ProblemPayload {
    return { status: this.status, code: this.code, detail: this.detail, ...this.options };
  }

  static fromPayload(payload: ProblemPayload): Problem {
    const { status, code, detail, ...options } = payload;
    // A service's problem, rendered as it sent it: its code is one of the catalogue's.
    return new Problem(status, code as ProblemCode, detail, options);
  }

  static isPayload(value: unknown): value is ProblemPayload {
    const v = value as ProblemPayload | null;
    return !!v && typeof v === 'object' && typeof v.status === 'number' && typeof v.code === 'string';
  }
}

export const problems = {
  badRequest: (code: ProblemCodeWith<400>, detail: string) => new Problem(400, code, detail),
  unauthorized: (code: ProblemCodeWith<401>, detail: string) => new Problem(401, code, detail),
  /** One answer for every bearer token we cannot accept, so none reveals why. */
  invalidToken: () => new Problem(401, 'invalid_token', 'The bearer token is malformed, expired or not ours.'),
  forbidden: (code: ProblemCodeWith<403>, detail: string) => new Problem(403, code, detail),
  /** Refused by the gateway and again by the service that owns the operation: one wording. */
  workspaceTokenForbidden: () =>
    new Problem(403, 'workspace_token_forbidden', 'A workspace-bound API token cannot be used for this operation.'),
  adminRequired: () => new Problem(403, 'admin_required', 'Only an instance administrator may do this.'),
  notFound: (detail = 'The resource does not exist.') => new Problem(404, 'not_found', detail),
  conflict: (code: ProblemCodeWith<409>, detail: string, extensions?: Record<string, unknown>) =>
    new Problem(409, code, detail, extensions ? { extensions } : {}),
  /** A stale `expected_revision`: one wording for every resource that has revisions, with `current_revision`. */
  revisionConflict: (resource: string, current: number, expected: number | null) =>
    new Problem(
      409,
      'revision_conflict',
      `The ${resource} is at revision ${current}` +
        (expected === null ? '' : `, not ${expected}`) +
        '; read it again and reapply the change.',
      { extensions: { current_revision: current } },
    ),
  validation: (errors: FieldError[], detail = 'The request is not valid.') => new Problem(422, 'validation_failed', detail, { errors }),
  invalid: (location: string, message: string, value?: unknown) =>
    new Problem(422, 'validation_failed', `${location} ${message}.`, {
      errors: [value === undefined ? { location, message } : { location, message, value }],
    }),
  tooManyRequests: (retryAfterSeconds: number, detail = 'Too many requests; try again later.') =>
    new Problem(429, 'rate_limited', detail, { retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)) }),
  internal: () => new Problem(500, 'internal_error', 'An unexpected error occurred; it has been logged.'),
  unavailable: (code: ProblemCodeWith<503>, detail: string, retryAfter = 5) => new Problem(503, code, detail, { retryAfter }),
  timeout: (detail: string, retryAfter = 5) => new Problem(504, 'upstream_timeout', detail, { retryAfter }),
};
