import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlueskyProvider } from './bluesky/bluesky.provider.js';
import { ProviderError } from './provider-error.js';
import { ProviderHttp } from './provider-http.js';
import { networkFetches, publicOnlyFetch } from './public-destination.js';
import { trackSending } from './request-sending.js';

/** A real HTTP server on loopback (a "private" address): it counts what reaches it. */
async function listen(
  handler: (path: string) => { status: number; location?: string },
): Promise<{ server: Server; origin: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const answer = handler(req.url ?? '');
    res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.location ? { location: answer.location } : {}) });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

const refusal = { failure: 'refused', networkCode: 'destination_not_public', call: { status: 0, sent: false } };

describe('servers on private addresses', () => {
  let internal: Awaited<ReturnType<typeof listen>>;
  let redirector: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    internal = await listen(() => ({ status: 200 }));
    redirector = await listen(() => ({ status: 302, location: `${internal.origin}/secret` }));
  });

  afterAll(async () => {
    await Promise.all([internal, redirector].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  });

  it('refuses a server named by address or by a name resolving to loopback, before anything is sent', async () => {
    const fetchFn = publicOnlyFetch([], false);
    await expect(fetchFn(`${internal.origin}/x`)).rejects.toMatchObject(refusal);
    await expect(fetchFn(`${internal.origin.replace('127.0.0.1', 'localhost')}/x`)).rejects.toMatchObject(refusal);
    expect(internal.hits).toEqual([]);
  });

  it('refuses at connect time a name resolving to a private address, for plain calls and streamed uploads alike', async () => {
    const { fetch: fetchFn, streamingFetch } = networkFetches([], false, async () => [{ address: '127.0.0.1', family: 4 }]);
    const url = internal.origin.replace('127.0.0.1', 'pds.example.com');
    await expect(fetchFn(`${url}/xrpc/createSession`, { method: 'POST', body: '{}' })).rejects.toMatchObject(refusal);
    const body = (async function* () {
      yield Buffer.from('video bytes');
    })();
    await expect(
      streamingFetch(`${url}/xrpc/com.atproto.repo.uploadBlob`, { method: 'POST', body } as unknown as RequestInit),
    ).rejects.toMatchObject(refusal);
    expect(internal.hits).toEqual([]);
  });

  it('lets an operator-configured origin (PROVIDER_API_ORIGINS) or PROVIDER_ALLOW_PRIVATE_ADDRESSES through', async () => {
    expect((await publicOnlyFetch([internal.origin], false)(`${internal.origin}/configured`)).status).toBe(200);
    expect((await publicOnlyFetch([], true)(`${internal.origin}/allowed`)).status).toBe(200);
    expect(internal.hits).toEqual(['/configured', '/allowed']);
  });

  it(
    'tells delivery whether a request left, through these fetches too ' + '(sent when answered, not sent when the connection was refused)',
    async () => {
      const { fetch: fetchFn } = networkFetches([], true);
      const answered = trackSending();
      expect((await answered.run(() => fetchFn(`${internal.origin}/tracked`))).status).toBe(200);
      expect(answered.sent()).toBe(true);
      const closed = await listen(() => ({ status: 200 }));
      await new Promise((resolve) => closed.server.close(resolve));
      const refused = trackSending();
      await expect(refused.run(() => fetchFn(`${closed.origin}/nobody`))).rejects.toThrow();
      expect(refused.sent()).toBe(false);
    },
  );

  it('checks every hop of a media download: a redirect into the private network is refused', async () => {
    const http = new ProviderHttp({}, undefined, publicOnlyFetch([redirector.origin], false));
    const before = internal.hits.length;
    await expect(http.download(`${redirector.origin}/media.png`, 1_000, AbortSignal.timeout(1_000))).rejects.toMatchObject(refusal);
    expect(internal.hits.length).toBe(before);
  });

  it('refuses a Bluesky server on a private address (an editor names the PDS)', async () => {
    const fetchFn = publicOnlyFetch([], false);
    const provider = new BlueskyProvider({}, new ProviderHttp({}, undefined, fetchFn), 1_000, undefined, fetchFn);
    const signIn = provider.signIn(
      { instanceUrl: internal.origin, identifier: 'ada.example', password: 'app-password' },
      AbortSignal.timeout(1_000),
    );
    await expect(signIn).rejects.toBeInstanceOf(ProviderError);
    await expect(signIn).rejects.toMatchObject(refusal);
    expect(internal.hits.filter((path) => path.includes('createSession'))).toEqual([]);
  });
});
