import { readLimited } from '@social/platform';
import type { FetchFunction } from '../provider-http.js';

/** A 429 body is a short JSON document. */
const MAX_ERROR_BODY = 64 * 1024;

/**
 * Telegram names the wait of a rate limit only in its error body (`{ok: false, error_code: 429, parameters:
 * {retry_after}}`, seconds), which ProviderHttp does not read: this fetch copies it into a Retry-After header
 * of the answer (when the answer has none), so the delivery waits as long as Telegram asks.
 */
export function withRetryAfterOfBody(fetchFn: FetchFunction): FetchFunction {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (response.status !== 429 || response.headers.has('retry-after')) return response;
    // Past the cap nothing is kept: the rate limit is still a rate limit, without a wait.
    const body = (await readLimited(response, MAX_ERROR_BODY)) ?? '';
    const headers = new Headers(response.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    const seconds = retryAfterOf(body);
    if (seconds !== undefined) headers.set('retry-after', String(seconds));
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

function retryAfterOf(body: string): number | undefined {
  try {
    const seconds = (JSON.parse(body) as { parameters?: { retry_after?: unknown } } | null)?.parameters?.retry_after;
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
  } catch {
    return undefined;
  }
}
