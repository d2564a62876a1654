import { ProviderError } from '../provider-error.js';
import { DeliveryError } from '../social-provider.js';
import { EXPIRED_TOKEN_CODE, graphFailure } from '../graph/graph-failure.js';

/**
 * Instagram's error body is Graph's (`{"error": {"message", "type", "code", "error_subcode", "fbtrace_id"}}`), but
 * the content-publishing codes (README.md beside this file, "Errors") are told apart only by their subcode, and some
 * codes are negative. The network code kept is `graph_<code>` or `graph_<code>.<subcode>`.
 */
export function instagramErrorCode(body: unknown): string | undefined {
  const error = (body as { error?: { code?: unknown; error_subcode?: unknown } } | null)?.error;
  const code = error?.code;
  if (typeof code !== 'number' || !Number.isInteger(code)) return undefined;
  const subcode = error?.error_subcode;
  return typeof subcode === 'number' && Number.isInteger(subcode) ? `graph_${code}.${subcode}` : `graph_${code}`;
}

/** The Graph code and subcode a failed call carried (instagramErrorCode); undefined members otherwise. */
export function instagramCodes(error: unknown): { code?: number; subcode?: number } {
  if (!(error instanceof ProviderError)) return {};
  const match = /^graph_(-?\d{1,9})(?:\.(\d{1,9}))?$/.exec(error.networkCode ?? '');
  return match ? { code: Number(match[1]), subcode: match[2] === undefined ? undefined : Number(match[2]) } : {};
}

/** Whether Instagram refused the access token (HTTP 401, or code 190): worth one renewal. */
export function instagramExpiredToken(error: unknown): boolean {
  return error instanceof ProviderError && (error.call?.status === 401 || instagramCodes(error).code === EXPIRED_TOKEN_CODE);
}

/** "You reached maximum number of posts that is allowed to be published by Content Publishing API" (code 9). */
export const PUBLISHING_LIMIT_SUBCODE = 2207042;
/** "We restrict certain activity to protect our community" (code 4, which is otherwise a rate limit). */
const RESTRICTED_SUBCODE = 2207051;
/** -1 (server error, create media fail, unknown upload error), -2 (download timeout, expired media): try again. */
const TEMPORARY_CODES = new Set([-1, -2]);
/** "The media is not ready for publishing, please wait for a moment" (code 9007, subcode 2207027). */
const NOT_READY_CODE = 9007;
/** How long to wait after the publishing limit answered by media_publish itself: ours (Instagram names no time). */
export const PUBLISHING_LIMIT_WAIT_MS = 60 * 60_000;

/**
 * The delivery outcome of a failed Instagram call: graphFailure (rate limits 4/17/32/613, temporary 1/2, 190 auth,
 * other 4xx validation), corrected for the content-publishing codes: the publishing limit is a rate limit with a
 * wait, a spam restriction is a policy refusal, -1/-2 and "not ready" are retryable.
 */
export function instagramFailure(error: unknown, creates: boolean): DeliveryError['failure'] {
  if (!(error instanceof ProviderError) || !error.call) return graphFailure(error, 'instagram', creates);
  const { code, subcode } = instagramCodes(error);
  const status = error.call.status;
  if (subcode === PUBLISHING_LIMIT_SUBCODE) {
    return {
      outcome: 'retryable',
      code: 'provider_rate_limited',
      message: 'instagram limits how many posts an account publishes in 24 hours; trying again later.',
      httpStatus: status,
      retryAfterMs: error.call.retryAfterMs ?? PUBLISHING_LIMIT_WAIT_MS,
    };
  }
  if (code === 4 && subcode === RESTRICTED_SUBCODE) {
    return {
      outcome: 'rejected',
      kind: 'policy',
      code: 'provider_restricted',
      message: 'instagram restricted this publishing as suspected spam; it will not be sent again.',
      httpStatus: status,
    };
  }
  if (creates && status >= 400 && status < 500 && code !== undefined && TEMPORARY_CODES.has(code)) {
    // A server error at media_publish does not say whether the post went out: looked up before anything is sent again.
    return {
      outcome: 'ambiguous',
      code: 'provider_outcome_unknown',
      message: 'instagram reported a server error while publishing; the post may exist and will be looked up.',
      httpStatus: status,
    };
  }
  if (status >= 400 && status < 500 && code !== undefined && (TEMPORARY_CODES.has(code) || code === NOT_READY_CODE)) {
    return {
      outcome: 'retryable',
      code: 'provider_error',
      message: 'instagram reported a temporary error; trying again later.',
      httpStatus: status,
    };
  }
  // graphFailure reads the plain `graph_<code>` form.
  const plain = code === undefined ? error : new ProviderError(error.failure, error.message, `graph_${code}`, error.call);
  return graphFailure(plain, 'instagram', creates);
}

/** Runs one Instagram call of a delivery; its failure becomes a DeliveryError by instagramFailure. */
export async function instagramCall<T>(creates: boolean, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new DeliveryError(instagramFailure(error, creates));
  }
}
