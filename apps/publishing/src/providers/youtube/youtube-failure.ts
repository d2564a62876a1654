import { pick, text } from '../oauth/oauth-network.js';
import { ProviderError } from '../provider-error.js';

/**
 * Google's error bodies (`{"error": {"code", "message", "errors": [{"reason", "domain", "message"}]}}`) and what
 * YouTube's reasons mean for a delivery (README.md beside this file: the Data API's error reference).
 */

/** The first `errors[].reason` of a Google error body: the code ProviderError keeps (never the free-text message). */
export const googleReason = (body: unknown): string | undefined => text(pick(body, 'error', 'errors', 0, 'reason')) || undefined;

/** The project's daily quota is spent: nothing more until the quota resets at midnight Pacific Time. */
const DAILY_QUOTA_REASONS = new Set(['quotaExceeded', 'dailyLimitExceeded']);
/** Too many requests in a short window: a short wait (the answer's Retry-After, else the delivery's own backoff). */
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);
/** 403 refusals that are about the video, not the grant: the post cannot be sent as it is (not a reconnect). */
export const FORBIDDEN_VIDEO_REASONS = new Set(['forbiddenPrivacySetting', 'forbiddenLicenseSetting']);

/** Where YouTube's daily quota resets. */
const QUOTA_TIME_ZONE = 'America/Los_Angeles';

/** The UTC offset of `zone` at `at` (ms, east positive), from Intl's `longOffset` ("GMT-07:00"). */
function offsetMs(zone: string, at: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(at))
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return (match[1] === '-' ? -1 : 1) * minutes * 60_000;
}

/**
 * The next midnight in Pacific Time after `now` (epoch ms), DST included: the wall-clock date in Los Angeles plus
 * one day at 00:00, turned back into UTC with the offset in force then (midnight is never inside a DST jump,
 * which happens at 02:00, so one correction suffices).
 */
export function nextQuotaReset(now: number): number {
  const local = new Date(now + offsetMs(QUOTA_TIME_ZONE, now));
  const midnightAsUtc = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1);
  const guess = midnightAsUtc - offsetMs(QUOTA_TIME_ZONE, midnightAsUtc);
  return midnightAsUtc - offsetMs(QUOTA_TIME_ZONE, guess);
}

/**
 * A quota or rate refusal (YouTube answers them 403) as the rate limit it is: status 429 so delivery and insights
 * treat it as one, waiting until the quota's reset for a spent daily quota. Anything else is returned as it is.
 */
export function asRateLimit(error: unknown, now = Date.now()): unknown {
  if (!(error instanceof ProviderError) || !error.networkCode) return error;
  const sent = error.call?.sent ?? true;
  if (DAILY_QUOTA_REASONS.has(error.networkCode)) {
    const retryAt = nextQuotaReset(now);
    return new ProviderError('unavailable', 'youtube: the daily API quota is spent until midnight Pacific Time.', error.networkCode, {
      status: 429,
      sent,
      retryAfterMs: retryAt - now,
      retryAt,
    });
  }
  if (RATE_REASONS.has(error.networkCode)) {
    return new ProviderError('unavailable', 'youtube limits the rate of requests.', error.networkCode, {
      status: 429,
      sent,
      ...(error.call?.retryAfterMs !== undefined ? { retryAfterMs: error.call.retryAfterMs, retryAt: error.call.retryAt } : {}),
    });
  }
  return error;
}
