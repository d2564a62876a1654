import { describe, expect, it } from '@jest/globals';
import { ProviderHttp, waitOf } from './provider-http.js';

const answer = (status: number, body: string) => async () =>
  new Response(body, { status, headers: { 'content-type': 'application/json' } });
const request = { method: 'GET' as const, url: 'https://api.x.com/2/users/me' };
const signal = () => AbortSignal.timeout(1_000);

describe('ProviderHttp', () => {
  it('answers parsed JSON, at the overridden origin', async () => {
    const urls: string[] = [];
    const http = new ProviderHttp({ x: 'http://127.0.0.1:1' }, undefined, async (url) => {
      urls.push(String(url));
      return new Response('{"ok":true}', { status: 200 });
    });
    await expect(http.json('x', request, signal())).resolves.toEqual({ ok: true });
    expect(urls).toEqual(['http://127.0.0.1:1/2/users/me']);
  });

  it('turns 4xx into a refusal carrying a well-formed OAuth error code only', async () => {
    await expect(
      new ProviderHttp({}, undefined, answer(400, '{"error":"invalid_grant"}')).json('x', request, signal()),
    ).rejects.toMatchObject({
      failure: 'refused',
      networkCode: 'invalid_grant',
    });
    await expect(new ProviderHttp({}, undefined, answer(401, '{"error":"<script>"}')).json('x', request, signal())).rejects.toMatchObject({
      failure: 'refused',
      networkCode: undefined,
    });
  });

  it.each([
    ['a 5xx', answer(503, '{}')],
    ['a 429', answer(429, '{}')],
    ['a redirect', answer(302, '')],
    ['an answer that is not JSON', answer(200, '<html>')],
    ['an unreachable network', async () => Promise.reject(new TypeError('fetch failed'))],
    ['an answer over 1 MiB', answer(200, `"${'x'.repeat(1024 * 1024)}"`)],
  ])('calls %s unavailable', async (_name, fetchFn) => {
    await expect(new ProviderHttp({}, undefined, fetchFn).json('x', request, signal())).rejects.toMatchObject({ failure: 'unavailable' });
  });

  it('calls a network that outlives the signal too slow', async () => {
    const stalled = (_url: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    await expect(new ProviderHttp({}, undefined, stalled).json('x', request, AbortSignal.timeout(20))).rejects.toMatchObject({
      failure: 'timeout',
    });
  });

  it("keeps the network's reset time exactly beside the wait (insights answers it as retry_at)", async () => {
    const now = Date.parse('2026-11-25T03:00:00.000Z');
    expect(waitOf(new Headers({ 'x-ratelimit-reset': '2026-11-25T03:05:00.250Z' }), now)).toEqual({
      retryAfterMs: 300_250,
      retryAt: Date.parse('2026-11-25T03:05:00.250Z'),
    });
    expect(waitOf(new Headers({ 'ratelimit-reset': String(now / 1000 + 90) }), now)).toEqual({
      retryAfterMs: 90_000,
      retryAt: now + 90_000,
    });
    expect(waitOf(new Headers({ 'retry-after': '12' }), now)).toEqual({ retryAfterMs: 12_000, retryAt: now + 12_000 });
    expect(waitOf(new Headers(), now)).toEqual({});
    const reset = new Date(Date.now() + 120_000).toISOString();
    const limited = new ProviderHttp(
      {},
      undefined,
      async () => new Response('{}', { status: 429, headers: { 'x-ratelimit-reset': reset } }),
    );
    await expect(limited.json('mastodon', request, signal())).rejects.toMatchObject({ call: { status: 429, retryAt: Date.parse(reset) } });
  });

  it("reads X's x-rate-limit-reset (epoch seconds), answers an empty 2xx as null with its headers", async () => {
    const now = Date.parse('2026-11-25T03:00:00.000Z');
    expect(waitOf(new Headers({ 'x-rate-limit-reset': String(now / 1000 + 60) }), now)).toEqual({
      retryAfterMs: 60_000,
      retryAt: now + 60_000,
    });
    const created = new ProviderHttp(
      {},
      undefined,
      async () => new Response('', { status: 201, headers: { 'x-restli-id': 'urn:li:share:7' } }),
    );
    const answered = await created.call('linkedin', { method: 'POST', url: 'https://api.linkedin.com/rest/posts', json: {} }, signal());
    expect([answered.status, answered.body, answered.headers.get('x-restli-id')]).toEqual([201, null, 'urn:li:share:7']);
  });

  it('logs the path a request names instead of one carrying a secret', async () => {
    const lines: unknown[] = [];
    const logger = { debug: (entry: unknown) => lines.push(entry), warn: (entry: unknown) => lines.push(entry) } as never;
    const http = new ProviderHttp({}, logger, answer(200, '{"ok":true}'));
    await http.json(
      'telegram',
      { method: 'GET', url: 'https://api.telegram.org/bot123:secret/getMe', loggedPath: '/bot…/getMe' },
      signal(),
    );
    expect(JSON.stringify(lines)).not.toContain('secret');
    expect(lines).toEqual([expect.objectContaining({ platform: 'telegram', path: '/bot…/getMe', status: 200 })]);
  });

  it("takes a 429's wait from its body where the network names it only there (retryAfterOf), headers first", async () => {
    const body = JSON.stringify({ ok: false, error_code: 429, parameters: { retry_after: 17 } });
    const retryAfterOf = (answer: unknown) => (answer as { parameters?: { retry_after?: unknown } }).parameters?.retry_after;
    const limited = (headers: Record<string, string>) =>
      new ProviderHttp({}, undefined, async () => new Response(body, { status: 429, headers }));
    await expect(limited({}).json('telegram', { ...request, retryAfterOf }, signal())).rejects.toMatchObject({
      call: { status: 429, retryAfterMs: 17_000 },
    });
    await expect(limited({ 'retry-after': '3' }).json('telegram', { ...request, retryAfterOf }, signal())).rejects.toMatchObject({
      call: { retryAfterMs: 3_000 },
    });
    const unnamed = await limited({})
      .json('telegram', request, signal())
      .catch((error: { call?: { retryAfterMs?: number } }) => error);
    expect((unnamed as { call?: { retryAfterMs?: number } }).call?.retryAfterMs).toBeUndefined();
  });
});
