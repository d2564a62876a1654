import { isDestinationNotPublic, PublicDestinations, readLimitedBytes } from '@social/platform';
import { parseRetryAfter } from './retry-schedule.js';
import type { SignedHeaders } from './signature.js';

/** What is read of a receiver's answer: enough to free the connection, never its whole body. */
const RESPONSE_READ_CAP_BYTES = 4 * 1024;
/** Longest error text kept in the log. */
const ERROR_MAX_LENGTH = 300;

/** One attempt's result, as the delivery log keeps it. */
export interface AttemptResult {
  ok: boolean;
  /** The receiver's HTTP status; 0 when it never answered. */
  statusCode: number;
  /** "" on success. */
  error: string;
  retryAfterMs?: number;
}

/**
 * POSTs one signed body to a receiver: public addresses only (judged on the address each connection uses,
 * see PublicDestinations) unless an allowed origin, redirects not followed (a 3xx is a failure), a 2xx
 * within the timeout is success, and at most a few KiB of the answer are read.
 */
export class WebhookSender {
  private readonly destinations: PublicDestinations;

  constructor(
    allowedOrigins: Iterable<string>,
    private readonly timeoutMs: number,
  ) {
    this.destinations = new PublicDestinations({ trustedOrigins: allowedOrigins });
  }

  async send(url: string, headers: SignedHeaders, body: string): Promise<AttemptResult> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await this.destinations.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'social-platform-webhooks/1', ...headers },
        body,
        redirect: 'manual',
        signal,
      });
      // Drained (a little) within the same deadline, so a receiver streaming forever cannot hold the slot.
      await readLimitedBytes(response, RESPONSE_READ_CAP_BYTES).catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return { ok: true, statusCode: response.status, error: '' };
      const error =
        response.status >= 300 && response.status < 400
          ? `the receiver redirected (HTTP ${response.status}); redirects are not followed`
          : `the receiver answered HTTP ${response.status}`;
      return { ok: false, statusCode: response.status, error, retryAfterMs: parseRetryAfter(response.headers.get('retry-after')) };
    } catch (error) {
      return { ok: false, statusCode: 0, error: this.describe(error, signal) };
    }
  }

  close(): Promise<void> {
    return this.destinations.close();
  }

  private describe(error: unknown, signal: AbortSignal): string {
    if (signal.aborted) return `no answer within ${this.timeoutMs / 1000} s (timed out)`;
    if (isDestinationNotPublic(error)) return 'the destination is not on a public address';
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const text = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    return `the request failed: ${text}`.slice(0, ERROR_MAX_LENGTH);
  }
}
