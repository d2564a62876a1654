import { toDeliveryFailure } from '../delivery-failure.js';
import { pick, text } from '../oauth/oauth-network.js';
import { ProviderError } from '../provider-error.js';
import { DeliveryError, type DeliveryFailure } from '../social-provider.js';

const PLATFORM = 'tiktok';
/** TikTok counts requests in a one-minute sliding window ("Rate Limits") and names no wait: a minute frees the window. */
export const RATE_WINDOW_MS = 60_000;
/** The daily caps (posts of a creator, active publishing users of the app) name no reset: we look again in an hour. */
export const DAILY_CAP_WAIT_MS = 3_600_000;

/** TikTok v2 answers `{data, error: {code, message, log_id}}`, `code` "ok" on success (sometimes beside HTTP 200). */
export const tiktokErrorCode = (body: unknown): string | undefined => {
  const code = text(pick(body, 'error', 'code'));
  return code && code !== 'ok' ? code : undefined;
};

/** Codes that mean the token is refused: renewed once (access_token_invalid), else the account is reconnected. */
export const AUTH_CODES = new Set(['access_token_invalid', 'scope_not_authorized', 'scope_permission_missed']);
/** Codes naming a post TikTok will not take as sent; several answer HTTP 403, which is not an authorization problem here. */
const VALIDATION_CODES = new Set(['invalid_param', 'invalid_params', 'invalid_file_upload', 'privacy_level_option_mismatch']);
/** The account or the app may not post this (TikTok's moderation or our app's audit): a person must act. */
const POLICY_CODES = new Set([
  'spam_risk_user_banned_from_posting',
  'unaudited_client_can_only_post_to_private_accounts',
  'spam_risk_text',
  'spam_risk',
]);
/** Caps that free up with time. */
const DAILY_CAP_CODES = new Set(['spam_risk_too_many_posts', 'spam_risk_too_many_pending_share', 'reached_active_user_cap']);

const MESSAGES: Record<string, string> = {
  privacy_level_option_mismatch: 'tiktok does not let this creator post with the privacy level asked.',
  url_ownership_unverified: "tiktok refuses to fetch media from a domain the app has not verified (the media's public copies).",
  spam_risk_user_banned_from_posting: 'tiktok has banned this account from posting.',
  unaudited_client_can_only_post_to_private_accounts: 'tiktok lets an app it has not audited post to private accounts only.',
  spam_risk_text: 'tiktok refuses the caption as spam.',
  spam_risk: 'tiktok refuses the post as spam.',
};

/**
 * A failed TikTok call as a delivery outcome, by TikTok's documented error code first (README.md "Errors"): the HTTP
 * status alone misleads (a 403 is a daily cap or a policy as often as a refused token). Anything else falls to the
 * shared mapping (5xx retryable, lost answers ambiguous for the call that creates the post).
 */
export function tiktokFailure(error: unknown, creates: boolean): DeliveryFailure {
  if (error instanceof DeliveryError) return error.failure;
  const code = error instanceof ProviderError ? error.networkCode : undefined;
  const httpStatus = error instanceof ProviderError ? (error.call?.status ?? 0) : 0;
  if (code && AUTH_CODES.has(code)) {
    // The message names no code: TikTok's (access_token_invalid…) would read as a token in logs that look for one.
    const message = "tiktok refused the account's authorization; reconnect the account.";
    return { outcome: 'rejected', kind: 'auth', code: 'provider_auth_rejected', message, httpStatus };
  }
  if (code && (VALIDATION_CODES.has(code) || code === 'url_ownership_unverified')) {
    const message = MESSAGES[code] ?? `tiktok refused the post as sent (${code}).`;
    return { outcome: 'rejected', kind: 'validation', code, message: `${message} The post cannot be sent as it is.`, httpStatus };
  }
  if (code && POLICY_CODES.has(code)) {
    return { outcome: 'rejected', kind: 'policy', code, message: MESSAGES[code] ?? `tiktok refuses the post (${code}).`, httpStatus };
  }
  if (code && DAILY_CAP_CODES.has(code)) {
    const message = `tiktok's daily cap is reached (${code}); trying again later.`;
    return { outcome: 'retryable', code: 'provider_rate_limited', message, httpStatus, retryAfterMs: DAILY_CAP_WAIT_MS };
  }
  const failure = toDeliveryFailure(error, PLATFORM, creates);
  if (failure.outcome === 'retryable' && failure.code === 'provider_rate_limited' && !failure.retryAfterMs)
    return { ...failure, retryAfterMs: RATE_WINDOW_MS };
  return failure;
}

/** Runs one TikTok call of a delivery; its failure becomes a DeliveryError (tiktokFailure). */
export async function tiktokCall<T>(creates: boolean, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new DeliveryError(tiktokFailure(error, creates));
  }
}

/**
 * A post's `fail_reason` (Get Post Status: FAILED) as a delivery outcome: TikTok's own trouble and media it could not
 * fetch now are tried again; a removed authorization reconnects; moderation is policy; the rest is the media or text
 * as sent (validation, keeping TikTok's reason as the code).
 */
export function failReasonFailure(reason: string): DeliveryFailure {
  const code = /^[a-z][a-z0-9_]{0,63}$/.test(reason) ? reason : 'publish_failed';
  if (code === 'internal' || code === 'video_pull_failed' || code === 'photo_pull_failed') {
    return {
      outcome: 'retryable',
      code: 'provider_error',
      message: `tiktok could not finish the post (${code}); trying again later.`,
      httpStatus: 0,
    };
  }
  if (code === 'auth_removed') {
    const message = "tiktok says the account's authorization was removed; reconnect the account.";
    return { outcome: 'rejected', kind: 'auth', code: 'provider_auth_rejected', message, httpStatus: 0 };
  }
  if (DAILY_CAP_CODES.has(code)) {
    const message = `tiktok's daily cap is reached (${code}); trying again later.`;
    return { outcome: 'retryable', code: 'provider_rate_limited', message, httpStatus: 0, retryAfterMs: DAILY_CAP_WAIT_MS };
  }
  if (POLICY_CODES.has(code) || code === 'publish_cancelled') {
    return { outcome: 'rejected', kind: 'policy', code, message: `tiktok did not publish the post (${code}).`, httpStatus: 0 };
  }
  const message = `tiktok could not publish the post's media as sent (${code}). The post cannot be sent as it is.`;
  return { outcome: 'rejected', kind: 'validation', code, message, httpStatus: 0 };
}
