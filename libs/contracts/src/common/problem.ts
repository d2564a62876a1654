/** One invalid member of a request, as rendered in a problem's `errors`. */
export interface FieldError {
  /** `body.<path>`, `query.<name>`, `path.<name>` or `header.<name>`. */
  location: string;
  message: string;
  value?: unknown;
}

/** What a service sends back over NATS when it refuses a request. */
export interface ProblemPayload {
  status: number;
  code: string;
  detail: string;
  errors?: FieldError[];
  /** Seconds, rendered as the `Retry-After` header. */
  retryAfter?: number;
  /** Extra top-level members of the problem body (e.g. `current_revision`). */
  extensions?: Record<string, unknown>;
}
