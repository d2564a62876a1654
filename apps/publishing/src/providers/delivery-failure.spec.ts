import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { rejected, requireGrant, toDeliveryFailure } from './delivery-failure.js';
import { capabilityUnavailable, ProviderError } from './provider-error.js';
import { ProviderHttp, retryAfterMs } from './provider-http.js';
import { DeliveryError } from './social-provider.js';

const answer =
  (status: number, body: string, headers: Record<string, string> = {}) =>
  async () =>
    new Response(body, { status, headers });
const post = { method: 'POST' as const, url: 'https://mastodon.example/api/v1/statuses', json: { status: 'hi' } };

async function failureOf(fetchFn: ConstructorParameters<typeof ProviderHttp>[2], creates = true, timeoutMs = 1_000) {
  try {
    await new ProviderHttp({}, undefined, fetchFn).json('mastodon', post, AbortSignal.timeout(timeoutMs));
  } catch (error) {
    return toDeliveryFailure(error, 'mastodon', creates);
  }
  throw new Error('the call succeeded');
}

describe('toDeliveryFailure', () => {
  it('makes a 429 retryable with the Retry-After of the network', async () => {
    await expect(failureOf(answer(429, '{}', { 'retry-after': '7' }))).resolves.toEqual(
      expect.objectContaining({ outcome: 'retryable', code: 'provider_rate_limited', httpStatus: 429, retryAfterMs: 7000 }),
    );
  });

  it('makes a 5xx retryable', async () => {
    await expect(failureOf(answer(503, '<html>'))).resolves.toMatchObject({
      outcome: 'retryable',
      code: 'provider_error',
      httpStatus: 503,
    });
  });

  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [400, 'validation'],
    [422, 'validation'],
  ])('rejects a %i as %s, without the network body', async (status, kind) => {
    const failure = await failureOf(answer(status, '{"error":"secret-token-abc leaked"}'));
    expect(failure).toMatchObject({ outcome: 'rejected', kind, httpStatus: status });
    expect(JSON.stringify(failure)).not.toContain('secret-token-abc');
  });

  it('makes a refused connection retryable: nothing was sent', async () => {
    const refused = async () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }));
    await expect(failureOf(refused)).resolves.toMatchObject({ outcome: 'retryable', code: 'provider_unavailable', httpStatus: 0 });
  });

  it('makes a lost connection or an unreadable 2xx of a create ambiguous, and of a read retryable', async () => {
    const reset = async () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'UND_ERR_SOCKET' } }));
    await expect(failureOf(reset)).resolves.toMatchObject({ outcome: 'ambiguous', code: 'provider_connection_lost' });
    await expect(failureOf(answer(200, '<html>'))).resolves.toMatchObject({
      outcome: 'ambiguous',
      code: 'provider_answer_unreadable',
      httpStatus: 200,
    });
    await expect(failureOf(reset, false)).resolves.toMatchObject({ outcome: 'retryable' });
  });

  it('makes a create that outlives its time ambiguous once the request went out', async () => {
    const server = createServer(() => undefined); // reads the request, never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/statuses`;
    try {
      const http = new ProviderHttp({}, undefined);
      const error = await http.json('mastodon', { ...post, url }, AbortSignal.timeout(150)).catch((caught: unknown) => caught);
      expect(toDeliveryFailure(error, 'mastodon', true)).toMatchObject({ outcome: 'ambiguous', code: 'provider_timeout' });
      expect(toDeliveryFailure(error, 'mastodon', false)).toMatchObject({ outcome: 'retryable', code: 'provider_timeout' });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('makes a create retryable when its time ran out before the request left (a TLS handshake that never ends)', async () => {
    const server = createTcpServer(() => undefined); // accepts the connection, never answers the handshake
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/statuses`;
    try {
      const error = await new ProviderHttp({}, undefined)
        .json('mastodon', { ...post, url }, AbortSignal.timeout(150))
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ failure: 'timeout', call: { status: 0, sent: false } });
      expect(toDeliveryFailure(error, 'mastodon', true)).toMatchObject({ outcome: 'retryable', code: 'provider_timeout', httpStatus: 0 });
    } finally {
      server.close();
    }
  });

  it('turns a real refused connection into retryable', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await new ProviderHttp({}, undefined)
      .json('mastodon', { ...post, url: `http://127.0.0.1:${port}/x` }, AbortSignal.timeout(1000))
      .catch((caught: unknown) => caught);
    expect(toDeliveryFailure(error, 'mastodon', true)).toMatchObject({ outcome: 'retryable', code: 'provider_unavailable' });
  });

  it('keeps DeliveryErrors and turns capability problems into rejected capability', () => {
    const failure = { outcome: 'rejected' as const, kind: 'policy' as const, code: 'x', message: 'm', httpStatus: 0 };
    expect(toDeliveryFailure(new DeliveryError(failure), 'x', true)).toBe(failure);
    expect(toDeliveryFailure(capabilityUnavailable('x', 'Video'), 'x', true)).toMatchObject({ outcome: 'rejected', kind: 'capability' });
    expect(toDeliveryFailure(new Error('bug'), 'x', true)).toMatchObject({ outcome: 'ambiguous' });
    expect(
      toDeliveryFailure(new ProviderError('refused', 'too big', 'media_too_large', { status: 413, sent: false }), 'x', true),
    ).toMatchObject({
      outcome: 'rejected',
      kind: 'validation',
      code: 'media_too_large',
    });
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads seconds, HTTP dates, ISO reset times and epoch resets', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now)).toBe(10_000);
    expect(retryAfterMs(new Headers({ 'x-ratelimit-reset': '2026-01-01T00:05:00.000Z' }), now)).toBe(300_000);
    expect(retryAfterMs(new Headers({ 'ratelimit-reset': String(now / 1000 + 60) }), now)).toBe(60_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });
});

describe('requireGrant and rejected', () => {
  const account = { id: 'a1', platform: 'mastodon' as const, externalId: '1', username: 'ada', instanceUrl: '', grant: null };

  it("answers the account's grant, and without one throws a rejected auth failure (reconnect)", () => {
    expect(requireGrant({ ...account, grant: { accessToken: 'token' } })).toEqual({ accessToken: 'token' });
    let thrown: unknown;
    try {
      requireGrant(account);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DeliveryError);
    expect((thrown as DeliveryError).failure).toEqual({
      outcome: 'rejected',
      kind: 'auth',
      code: 'provider_auth_rejected',
      message: 'The account holds no grant; connect it again.',
      httpStatus: 0,
    });
  });

  it('makes a rejected validation failure, with HTTP status 0 unless one is given', () => {
    expect(rejected('too_many_media', 'Too many.').failure).toEqual({
      outcome: 'rejected',
      kind: 'validation',
      code: 'too_many_media',
      message: 'Too many.',
      httpStatus: 0,
    });
    expect(rejected('duplicate_content', 'A duplicate.', 422).failure.httpStatus).toBe(422);
  });
});
