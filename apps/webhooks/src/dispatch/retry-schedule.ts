/** Attempts per delivery (contract §10): the first and 7 retries. A redelivery allows one more. */
export const MAX_ATTEMPTS = 8;
/** A receiver's Retry-After is honoured up to an hour. */
export const RETRY_AFTER_CAP_MS = 3_600_000;

/**
 * How long to wait after failed attempt number `attempt` (1-based), or null when none is left: the schedule's
 * step, or the receiver's Retry-After when that is longer (at most an hour).
 */
export function retryDelayMs(schedule: readonly number[], attempt: number, maxAttempts: number, retryAfterMs?: number): number | null {
  if (attempt >= maxAttempts) return null;
  const step = schedule[Math.min(Math.max(attempt, 1), schedule.length) - 1];
  return Math.max(step, Math.min(retryAfterMs ?? 0, RETRY_AFTER_CAP_MS));
}

/** A Retry-After header (delay-seconds or an HTTP date) in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
