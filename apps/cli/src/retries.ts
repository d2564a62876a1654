import { ExitCode } from './exit-codes.js';
import { CliError } from './cli-error.js';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** The first wait; each next one doubles, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Each try's time limit (the gateway answers within 10 s; uploads get longer). */
  timeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
  /** Told before each retry: why, and which try comes next. */
  onRetry?: (reason: string, nextAttempt: number) => void;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, timeoutMs: 30_000 };

/** Statuses that say "not now": the same request may be sent again (with the same Idempotency-Key). */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Sends a request, again on a network error, a time-out, 429/502/503/504 or 409 `idempotency_in_flight`, waiting
 * as `Retry-After` says or backing off. Safe for writes because every write carries an Idempotency-Key (creates)
 * or an `expected_revision` (changes): a second arrival creates nothing new. `send` builds a fresh request each time
 * (a body stream is read once). After the last try a response is answered as it is; a network error becomes exit 6.
 */
export async function withRetries(send: (signal: AbortSignal) => Promise<Response>, target: string, policy: RetryPolicy) {
  const sleep = policy.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= policy.attempts;
    let reason: string;
    let waitMs: number | undefined;
    try {
      const response = await send(AbortSignal.timeout(policy.timeoutMs));
      const retryable = RETRYABLE_STATUSES.has(response.status) || (await isInFlight(response));
      if (!retryable || last) return response;
      waitMs = retryAfterMs(response.headers.get('retry-after'));
      if (waitMs !== undefined && waitMs > policy.maxDelayMs) return response; // a long lock-out: say so now
      reason = `${response.status} ${response.statusText}`.trim();
      await response.body?.cancel();
    } catch (error) {
      reason = networkReason(error);
      if (last) throw new CliError(`cannot reach ${target}: ${reason}`, ExitCode.unavailable);
    }
    policy.onRetry?.(reason, attempt + 1);
    await sleep(waitMs ?? backoffMs(attempt, policy));
  }
}

/** 409 `idempotency_in_flight`: the first request with this key is still running; its answer comes on a later try. */
async function isInFlight(response: Response): Promise<boolean> {
  if (response.status !== 409 || !/json/.test(response.headers.get('content-type') ?? '')) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown } | null;
  return body?.code === 'idempotency_in_flight';
}

export function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export function backoffMs(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** "connection refused", "timed out", … from fetch's wrapped cause, for people. */
export function networkReason(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'no answer in time';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'unknown host',
    EAI_AGAIN: 'host name lookup failed',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'connection timed out',
    UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
    UND_ERR_SOCKET: 'connection closed',
  };
  if (code && known[code]) return known[code];
  return cause?.message || (error instanceof Error ? error.message : String(error));
}
