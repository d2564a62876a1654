import { Problem, problems } from './problem.js';

/** SQLSTATE classes and codes that mean "the database cannot serve this right now". */
const UNAVAILABLE_STATES = /^(08|53|57P0[1-3])/;
/** Lost races that a retry resolves. */
const RETRYABLE_STATES = new Set(['40001', '40P01']);
/** Values PostgreSQL refuses: too long, NUL or unencodable characters, a null where none may be. */
const INVALID_VALUE_STATES = new Set(['22001', '22021', '22P05', '23502']);
/** Invalid text representation: only jsonb's (e.g. a lone surrogate) is the request's value; a bad uuid or number in SQL is our bug. */
const INVALID_TEXT_STATE = '22P02';
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

interface DriverError {
  code?: string;
  message?: string;
  driverError?: DriverError;
}

/**
 * Database failures that are not bugs, as problems: PostgreSQL unreachable or
 * shutting down is 503 (the caller may retry), a lost serialization race 503
 * too, and a unique-key race that a service's own check could not see is 409.
 * Anything else is left to the caller (a 500).
 */
export function databaseProblem(error: unknown): Problem | undefined {
  const outer = error as DriverError | null;
  if (!outer || typeof outer !== 'object') return undefined;
  const inner = outer.driverError ?? outer;
  const code = inner.code ?? outer.code ?? '';
  if (
    NETWORK_CODES.has(code) ||
    UNAVAILABLE_STATES.test(code) ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(inner.message ?? '')
  ) {
    return problems.unavailable('database_unavailable', 'The database is not reachable right now; try again shortly.', 2);
  }
  if (RETRYABLE_STATES.has(code)) {
    return problems.unavailable('concurrent_update', 'The request collided with another one; try again.', 1);
  }
  if (INVALID_VALUE_STATES.has(code) || (code === INVALID_TEXT_STATE && /json/i.test(inner.message ?? ''))) {
    // Validation should have caught it: a safety net, logged by the caller.
    return new Problem(422, 'invalid_value', 'A value in the request cannot be stored.');
  }
  if (code === '23505') {
    return problems.conflict('conflict', 'The request conflicts with data that already exists.');
  }
  return undefined;
}

/** A unique-key race lost to a concurrent request: callers that know what the key means answer their own 409. */
export function isUniqueViolation(error: unknown): boolean {
  const outer = error as DriverError | null;
  return !!outer && typeof outer === 'object' && (outer.driverError ?? outer).code === '23505';
}

/** Whether a database error is the violation of this named constraint or unique index. */
export function violatesConstraint(error: unknown, constraint: string): boolean {
  const failure = error as { constraint?: string; driverError?: { constraint?: string } } | null;
  return (failure?.driverError?.constraint ?? failure?.constraint) === constraint;
}

/** Runs a write; the violation of `constraint` becomes the problem that explains it (e.g. 409 duplicate_name). */
export async function explainingConstraint<T>(write: () => Promise<T>, constraint: string, explain: () => Problem): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violatesConstraint(error, constraint)) throw explain();
    throw error;
  }
}
