import { describe, expect, it, jest } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { Problem } from '@social/platform';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';

// ts-jest compiles one file at a time, so the limiter's import of the GatewayConfig type stays a named import
// that config.ts does not export at run time; this stand-in provides it (and the injection token).
jest.unstable_mockModule('../config.js', () => ({ GATEWAY_CONFIG: Symbol('GATEWAY_CONFIG'), GatewayConfig: undefined }));
const { TokenRateLimiter } = await import('./token-rate-limiter.js');

const MINUTE = 60_000;
/** A minute boundary, so times inside the window are easy to read. */
const WINDOW_START = Date.UTC(2030, 5, 1, 12, 0, 0);

/** A limiter without its shared KV bucket (as when JetStream is unavailable): it counts in this replica. */
const limiter = (perMinute: number) =>
  new TokenRateLimiter({} as NatsConnection, { TOKEN_RATE_LIMIT_PER_MINUTE: perMinute } as GatewayConfig, {} as Logger);

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);

describe('TokenRateLimiter', () => {
  it('allows the configured number of requests per token per minute, then answers 429', async () => {
    const limits = limiter(3);
    for (let i = 0; i < 3; i++) await limits.hit('session-1', WINDOW_START + i);
    const refusal = await refusalOf(limits.hit('session-1', WINDOW_START + 10));
    expect(refusal).toBeInstanceOf(Problem);
    expect(refusal).toMatchObject({ status: 429, code: 'rate_limited', detail: 'This token has made too many requests this minute.' });
  });

  it('says to retry when the minute ends, rounded up to a whole second', async () => {
    const limits = limiter(1);
    await limits.hit('session-1', WINDOW_START);
    expect(await refusalOf(limits.hit('session-1', WINDOW_START + 15_500))).toMatchObject({ options: { retryAfter: 45 } });
    expect(await refusalOf(limits.hit('session-1', WINDOW_START + MINUTE - 1))).toMatchObject({ options: { retryAfter: 1 } });
  });

  it('counts each token on its own', async () => {
    const limits = limiter(1);
    await limits.hit('session-1', WINDOW_START);
    await expect(limits.hit('session-2', WINDOW_START)).resolves.toBeUndefined();
    expect(await refusalOf(limits.hit('session-1', WINDOW_START))).toMatchObject({ status: 429 });
  });

  it('starts every minute afresh (fixed windows, not a sliding one)', async () => {
    const limits = limiter(2);
    await limits.hit('session-1', WINDOW_START + MINUTE - 2);
    await limits.hit('session-1', WINDOW_START + MINUTE - 1);
    expect(await refusalOf(limits.hit('session-1', WINDOW_START + MINUTE - 1))).toMatchObject({ status: 429 });
    await expect(limits.hit('session-1', WINDOW_START + MINUTE)).resolves.toBeUndefined();
  });

  it('does not count refused requests against the next ones', async () => {
    const limits = limiter(1);
    await limits.hit('session-1', WINDOW_START);
    for (let i = 0; i < 5; i++) await refusalOf(limits.hit('session-1', WINDOW_START + i));
    await expect(limits.hit('session-1', WINDOW_START + MINUTE)).resolves.toBeUndefined();
  });

  it('takes a per-call limit and wording (failed authentications per address)', async () => {
    const limits = limiter(1_000);
    const detail = 'Too many requests with an invalid token from this address.';
    await limits.hit('failed-auth.203.0.113.7', WINDOW_START, 1, detail);
    expect(await refusalOf(limits.hit('failed-auth.203.0.113.7', WINDOW_START, 1, detail))).toMatchObject({ status: 429, detail });
  });
});
