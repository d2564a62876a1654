import { Problem } from '@social/platform';
import { ProviderError } from './provider-error.js';
import { DeliveryError, type DeliveryFailure, type ProviderAccount, type ProviderGrant } from './social-provider.js';

/**
 * The one mapping from a failed network call to a DeliveryFailure (contract
 * §4 "Delivery"), for every adapter. `creates` says whether the call itself
 * creates the post (a status, a record): only such a call can leave the
 * outcome unknown; a failed read or upload created nothing visible, so trying
 * later is safe.
 *
 * - 429 → retryable `provider_rate_limited` with the network's wait; 5xx →
 *   retryable `provider_error`;
 * - no answer and the request never left (refused connection, DNS, TLS) →
 *   retryable `provider_unavailable`;
 * - no answer, or an unreadable 2xx, after the request may have left → for a
 *   create `ambiguous` (`provider_timeout`, `provider_connection_lost`,
 *   `provider_answer_unreadable`), else retryable;
 * - 401/403 (or a grant that cannot be renewed) → rejected `auth`; other 4xx →
 *   rejected `validation` (`media_too_large` and `media_unavailable` keep their code);
 * - a `provider_capability_unavailable` problem → rejected `capability`.
 *
 * Messages are ours: never a token or the network's body.
 */
export function toDeliveryFailure(error: unknown, platform: string, creates: boolean): DeliveryFailure {
  if (error instanceof DeliveryError) return error.failure;
  if (error instanceof Problem && error.code === 'provider_capability_unavailable') {
    return { outcome: 'rejected', kind: 'capability', code: error.code, message: error.message, httpStatus: 0 };
  }
  if (!(error instanceof ProviderError)) {
    // A fault of ours or an answer we could not follow: the call may have gone out.
    return creates
      ? {
          outcome: 'ambiguous',
          code: 'provider_outcome_unknown',
          message: `The ${platform} call failed unexpectedly; whether the post exists is unknown.`,
          httpStatus: 0,
        }
      : { outcome: 'retryable', code: 'provider_error', message: `The ${platform} call failed unexpectedly.`, httpStatus: 0 };
  }
  const status = error.call?.status ?? 0;
  const sent = error.call?.sent ?? true;
  if (error.failure === 'refused' || error.failure === 'no_account') {
    if (status === 401 || status === 403 || status === 0 || error.failure === 'no_account') {
      return {
        outcome: 'rejected',
        kind: 'auth',
        code: 'provider_auth_rejected',
        message: `${platform} refused the account's authorization; reconnect the account.`,
        httpStatus: status,
      };
    }
    const code =
      error.networkCode === 'media_too_large' || error.networkCode === 'media_unavailable' ? error.networkCode : 'provider_rejected';
    return {
      outcome: 'rejected',
      kind: 'validation',
      code,
      message: `${error.message} The post cannot be sent as it is.`,
      httpStatus: status,
    };
  }
  if (status === 429) {
    return {
      outcome: 'retryable',
      code: 'provider_rate_limited',
      message: `${platform} limits the rate of requests; trying again later.`,
      httpStatus: 429,
      retryAfterMs: error.call?.retryAfterMs,
    };
  }
  if (status >= 500) {
    return {
      outcome: 'retryable',
      code: 'provider_error',
      message: `${platform} answered HTTP ${status}; trying again later.`,
      httpStatus: status,
      retryAfterMs: error.call?.retryAfterMs,
    };
  }
  if (!sent) {
    const code = error.failure === 'timeout' ? 'provider_timeout' : 'provider_unavailable';
    return { outcome: 'retryable', code, message: `${platform} could not be reached; nothing was sent.`, httpStatus: 0 };
  }
  if (!creates) {
    const code = error.failure === 'timeout' ? 'provider_timeout' : 'provider_unavailable';
    return { outcome: 'retryable', code, message: `${error.message} Trying again later.`, httpStatus: status };
  }
  const code =
    error.failure === 'timeout'
      ? 'provider_timeout'
      : status >= 200 && status < 300
        ? 'provider_answer_unreadable'
        : 'provider_connection_lost';
  return {
    outcome: 'ambiguous',
    code,
    message: `${error.message} The post may exist; it will be looked up before any new attempt.`,
    httpStatus: status,
  };
}

/** Runs one network call of a delivery; its failure becomes a DeliveryError. */
export async function deliveryCall<T>(platform: string, creates: boolean, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new DeliveryError(toDeliveryFailure(error, platform, creates));
  }
}

/** The account's grant for a delivery; none is a rejected `auth` failure (the user connects the account again). */
export function requireGrant(account: ProviderAccount): ProviderGrant {
  if (!account.grant) {
    throw new DeliveryError({
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_auth_rejected',
      message: 'The account holds no grant; connect it again.',
      httpStatus: 0,
    });
  }
  return account.grant;
}

/** A post the network cannot take as it is: a rejected `validation` failure, never tried again. */
export const rejected = (code: string, message: string, httpStatus = 0) =>
  new DeliveryError({ outcome: 'rejected', kind: 'validation', code, message, httpStatus });
