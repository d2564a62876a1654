import type { ProviderCallResult } from '@social/contracts';
import { Problem } from '@social/platform';
import { MissingScopes, ProviderError } from '../providers/provider-error.js';
import { DeliveryError } from '../providers/social-provider.js';

/** When the network names no wait (a 429 without reset headers, a 5xx): ask again in a minute. */
export const DEFAULT_RETRY_MS = 60_000;

/** A failed answer, and whether the account must be marked `reconnect_required` (its grant was refused). */
export interface FailedCall {
  result: Exclude<ProviderCallResult<never>, { status: 'ok' }>;
  reconnect: boolean;
}

const at = (now: number, waitMs: number | undefined) => new Date(now + (waitMs ?? DEFAULT_RETRY_MS)).toISOString();

/**
 * The one mapping from what a network call for insights threw to the answer
 * insights gets (issue 15). Expected network outcomes are answers:
 * - 429 → `rate_limited`, `retry_at` the network's reset (`Retry-After`,
 *   `X-RateLimit-Reset`, `ratelimit-reset`), else now + 60 s;
 * - 401/403, a refused grant or renewal, no grant → `permission_required`
 *   (`reconnect`: the account is marked `reconnect_required`); a grant without
 *   the operation's scope (MissingScopes) → `permission_required` naming them,
 *   the account left active (publishing still works); a
 *   missing provider app (`provider_not_configured`: not the account's fault) → `failed`;
 * - 404 → `not_found`; a capability the adapter lacks → `unsupported`;
 * - 5xx, a timeout, an unreachable network, an outcome in doubt → `temporarily_unavailable`;
 * - any other refusal, or an unexpected error → `failed`.
 * Messages are ours: never a token or the network's body.
 */
export function toFailedCall(error: unknown, platform: string, now = Date.now()): FailedCall {
  const failed = (code: string, message: string): FailedCall => ({ result: { status: 'failed', code, message }, reconnect: false });
  const permission = (code: string): FailedCall => ({
    result: {
      status: 'permission_required',
      missing_scopes: [],
      code,
      message: `${platform} refused the account's authorization; reconnect the account.`,
    },
    reconnect: true,
  });
  const rateLimited = (waitMs: number | undefined, retryAt?: number): FailedCall => ({
    result: {
      status: 'rate_limited',
      retry_at: retryAt !== undefined ? new Date(retryAt).toISOString() : at(now, waitMs),
      code: 'provider_rate_limited',
      message: `${platform} limits the rate of requests; ask again after retry_at.`,
    },
    reconnect: false,
  });
  const unavailable = (code: string, message: string, waitMs?: number, retryAt?: number): FailedCall => ({
    result: {
      status: 'temporarily_unavailable',
      retry_at: retryAt !== undefined ? new Date(retryAt).toISOString() : at(now, waitMs),
      code,
      message,
    },
    reconnect: false,
  });
  const notFound = (): FailedCall => ({
    result: { status: 'not_found', code: 'provider_not_found', message: `${platform} says it does not exist (any more).` },
    reconnect: false,
  });
  const unsupported = (message: string): FailedCall => ({
    result: { status: 'unsupported', code: 'provider_capability_unavailable', message },
    reconnect: false,
  });

  if (error instanceof Problem && error.code === 'provider_capability_unavailable') return unsupported(error.detail);
  if (error instanceof MissingScopes) {
    // Publishing still works with this grant: the account stays active; connecting it again grants the scopes.
    return {
      result: { status: 'permission_required', missing_scopes: error.scopes, code: 'provider_scope_missing', message: error.message },
      reconnect: false,
    };
  }
  if (error instanceof DeliveryError) {
    const failure = error.failure;
    if (failure.outcome === 'retryable') {
      return failure.httpStatus === 429
        ? rateLimited(failure.retryAfterMs)
        : unavailable(failure.code, `${platform} cannot be asked now; try again later.`, failure.retryAfterMs);
    }
    if (failure.outcome === 'ambiguous') return unavailable(failure.code, `${platform} did not answer; try again later.`);
    if (failure.kind === 'auth') {
      return failure.code === 'provider_not_configured' ? failed(failure.code, failure.message) : permission('provider_auth_rejected');
    }
    if (failure.kind === 'capability') return unsupported(failure.message);
    if (failure.httpStatus === 404) return notFound();
    return failed(failure.code, failure.message);
  }
  if (error instanceof ProviderError) {
    const status = error.call?.status ?? 0;
    if (status === 429) return rateLimited(error.call?.retryAfterMs, error.call?.retryAt);
    if (error.failure === 'no_account') return permission('provider_auth_rejected');
    if (error.failure === 'refused') {
      if (status === 401 || status === 403 || status === 0) return permission('provider_auth_rejected');
      if (status === 404) return notFound();
      return failed('provider_rejected', `${platform} refused the request (HTTP ${status}).`);
    }
    if (error.failure === 'timeout') return unavailable('provider_timeout', `${platform} did not answer in time; try again later.`);
    if (status >= 500)
      return unavailable(
        'provider_error',
        `${platform} answered HTTP ${status}; try again later.`,
        error.call?.retryAfterMs,
        error.call?.retryAt,
      );
    return unavailable('provider_unavailable', `${platform} could not be reached; try again later.`);
  }
  return failed('provider_call_failed', `The ${platform} call failed unexpectedly.`);
}
