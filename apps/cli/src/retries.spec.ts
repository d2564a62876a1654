import { describe, expect, it } from '@jest/globals';
import { CliError } from './cli-error.js';
import { retryAfterMs, withRetries, type RetryPolicy } from './retries.js';

const policy = (waits: number[]): RetryPolicy => ({
  attempts: 3,
  baseDelayMs: 100,
  maxDelayMs: 2_000,
  timeoutMs: 1_000,
  sleep: async (ms) => void waits.push(ms),
});

const answer = (status: number, body: unknown = {}, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/problem+json', ...headers } });

describe('withRetries', () => {
  it('sends again after 503 and a lost connection, waiting as Retry-After says, and answers the first success', async () => {
    const waits: number[] = [];
    const answers = [() => answer(503, {}, { 'retry-after': '1' }), () => Promise.reject(new TypeError('fetch failed')), () => answer(201)];
    let sent = 0;
    const response = await withRetries(async () => answers[sent++](), 'http://api', policy(waits));
    expect(response.status).toBe(201);
    expect(sent).toBe(3);
    expect(waits[0]).toBe(1_000);
    expect(waits[1]).toBeGreaterThanOrEqual(100);
    expect(waits[1]).toBeLessThanOrEqual(200);
  });

  it('retries 409 idempotency_in_flight but not another 409 or a 4xx', async () => {
    const statuses: number[] = [];
    const inFlight = [answer(409, { code: 'idempotency_in_flight' }), answer(200)];
    expect((await withRetries(async () => inFlight.shift()!, 'x', policy([]))).status).toBe(200);
    for (const [status, code] of [
      [409, 'revision_conflict'],
      [422, 'validation_failed'],
      [401, 'invalid_token'],
    ] as const) {
      let sent = 0;
      const response = await withRetries(async () => (sent++, answer(status, { code })), 'x', policy([]));
      statuses.push(response.status, sent);
    }
    expect(statuses).toEqual([409, 1, 422, 1, 401, 1]);
  });

  it('answers the last response after the last try, and a long Retry-After at once', async () => {
    let sent = 0;
    expect((await withRetries(async () => (sent++, answer(502)), 'x', policy([]))).status).toBe(502);
    expect(sent).toBe(3);
    sent = 0;
    expect((await withRetries(async () => (sent++, answer(429, {}, { 'retry-after': '900' })), 'x', policy([]))).status).toBe(429);
    expect(sent).toBe(1);
  });

  it('a network error on the last try becomes exit 6 naming the target and the reason', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const failure = await withRetries(() => Promise.reject(refused), 'http://127.0.0.1:1', policy([])).catch((error) => error);
    expect(failure).toBeInstanceOf(CliError);
    expect(failure).toMatchObject({ exitCode: 6, message: 'cannot reach http://127.0.0.1:1: connection refused' });
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs(new Date(Date.now() + 5_000).toUTCString())).toBeGreaterThan(3_000);
  });
});
