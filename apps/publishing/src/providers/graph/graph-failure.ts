import { toDeliveryFailure } from '../delivery-failure.js';
import { ProviderError } from '../provider-error.js';
import { DeliveryError } from '../social-provider.js';

/**
 * Graph API error codes (Graph API "Handling errors"; see threads/README.md) whose HTTP status alone
 * does not say what to do: Meta answers most of them with 400.
 */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
/** "API Unknown" and "API Service": temporary, retry later. */
const TEMPORARY_CODES = new Set([1, 2]);
/** "Access token has expired" (OAuthException): a new token, or reconnecting. */
export const EXPIRED_TOKEN_CODE = 190;
/**
 * How long to wait after a rate limit whose answer names no wait (Graph sends no Retry-After; its limits
 * are counted over a rolling 24 hours): ours, long enough not to spend further calls on a limit just reached.
 */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 10 * 60_000;

/** Where a Graph error body names its code (`{"error": {"code": 4}}`), as the network code `graph_4` (ProviderRequest.errorCodeOf). */
export function graphErrorCode(body: unknown): string | undefined {
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  return typeof code === 'number' && Number.isInteger(code) ? `graph_${code}` : undefined;
}

/** The Graph error code a failed call carried (see graphErrorCode); undefined otherwise. */
export function graphCode(error: unknown): number | undefined {
  if (!(error instanceof ProviderError)) return undefined;
  const match = /^graph_(\d{1,9})$/.exec(error.networkCode ?? '');
  return match ? Number(match[1]) : undefined;
}

/** Whether the network refused the access token (HTTP 401, or Graph code 190 whatever the status): worth one renewal. */
export function expiredToken(error: unknown): boolean {
  return error instanceof ProviderError && (error.call?.status === 401 || graphCode(error) === EXPIRED_TOKEN_CODE);
}

/**
 * The delivery outcome of a failed Graph API call (Threads, Facebook, Instagram): toDeliveryFailure's mapping by
 * status, corrected by the Graph code where Meta's status is not enough — 4/17/32/613 are rate limits (retryable, with the answer's wait or
 * DEFAULT_RATE_LIMIT_WAIT_MS), 1/2 are temporary (retryable), 190 is an expired or revoked token (rejected auth);
 * a 429 that names no wait gets DEFAULT_RATE_LIMIT_WAIT_MS.
 */
export function graphFailure(error: unknown, platform: string, creates: boolean): DeliveryError['failure'] {
  const failure = toDeliveryFailure(error, platform, creates);
  if (!(error instanceof ProviderError) || !error.call) return failure;
  const status = error.call.status;
  const code = graphCode(error);
  const rateLimited = status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code) && status < 500);
  if (rateLimited) {
    return {
      outcome: 'retryable',
      code: 'provider_rate_limited',
      message: `${platform} limits the rate of requests; trying again later.`,
      httpStatus: status,
      retryAfterMs: error.call.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS,
    };
  }
  if (code !== undefined && TEMPORARY_CODES.has(code) && status >= 400 && status < 500) {
    return {
      outcome: 'retryable',
      code: 'provider_error',
      message: `${platform} reported a temporary error; trying again later.`,
      httpStatus: status,
    };
  }
  if (code === EXPIRED_TOKEN_CODE && status >= 400 && status < 500) {
    return {
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_auth_rejected',
      message: `${platform} refused the account's authorization; reconnect the account.`,
      httpStatus: status,
    };
  }
  return failure;
}

/** Runs one Graph API call of a delivery (like deliveryCall); its failure becomes a DeliveryError by graphFailure. */
export async function graphCall<T>(platform: string, creates: boolean, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new DeliveryError(graphFailure(error, platform, creates));
  }
}

/** Graph's answer for an id it does not know or no longer shows: 404, or 400 with code 100 (or no Graph code to tell). */
export function unknownObject(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false;
  const code = graphCode(error);
  return error.call?.status === 404 || (error.call?.status === 400 && (code === undefined || code === 100));
}
