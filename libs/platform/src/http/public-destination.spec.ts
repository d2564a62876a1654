import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDestinationNotPublic, publicOnlyLookup, PublicDestinations, type Resolve } from './public-destination.js';

/** A resolver answering from a script, one answer per call (the last one repeats), counting its calls. */
function scripted(...answers: string[][]): Resolve & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    const answer = answers[Math.min(calls.length, answers.length - 1)];
    calls.push(hostname);
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('the call succeeded');
}

describe('PublicDestinations: the check is made on the address the socket connects to', () => {
  let server: Server;
  let port: number;
  const hits: Array<{ path: string; host: string }> = [];

  beforeAll(async () => {
    // The "internal" server every attack aims at: on loopback, so never a public address.
    server = createServer(async (req, res) => {
      hits.push({ path: req.url ?? '', host: req.headers.host ?? '' });
      let body = '';
      for await (const part of req) body += String(part);
      res.end(req.url === '/echo' ? JSON.stringify({ type: req.headers['content-type'], body }) : 'internal secret');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses at connect time a name whose lookup answers a private address: nothing reaches the server', async () => {
    const resolve = scripted(['127.0.0.1']);
    const destinations = new PublicDestinations({ resolve });
    const before = hits.length;
    const error = await failureOf(destinations.fetch(`http://pds.example.com:${port}/xrpc/createSession`));
    expect(isDestinationNotPublic(error)).toBe(true);
    // The refusal came from the connection's own lookup, not from a check beside it.
    expect(resolve.calls).toEqual(['pds.example.com']);
    expect(hits.length).toBe(before);
    await destinations.close();
  });

  it('a name answering a public address first and a private one after (DNS rebinding) never reaches the private one', async () => {
    // 192.0.2.1 (documentation range) is public and reaches nobody: the first connection goes there and fails.
    const resolve = scripted(['192.0.2.1'], ['127.0.0.1']);
    const destinations = new PublicDestinations({ resolve });
    const before = hits.length;
    await failureOf(destinations.fetch(`http://rebind.example.com:${port}/first`, { signal: AbortSignal.timeout(500) }));
    // One resolution served both the check and the connection: the private answer was never asked for.
    expect(resolve.calls).toEqual(['rebind.example.com']);
    const second = await failureOf(destinations.fetch(`http://rebind.example.com:${port}/second`));
    expect(isDestinationNotPublic(second)).toBe(true);
    expect(resolve.calls).toHaveLength(2);
    expect(hits.length).toBe(before);
    await destinations.close();
  });

  it('refuses a name with any private answer among public ones', async () => {
    const destinations = new PublicDestinations({ resolve: scripted(['192.0.2.1', '10.0.0.5']) });
    expect(isDestinationNotPublic(await failureOf(destinations.fetch(`http://mixed.example.com:${port}/`)))).toBe(true);
    await destinations.close();
  });

  it('refuses private address literals (v4, v6, IPv4-mapped, NAT64) before anything is sent', async () => {
    const resolve = scripted(['8.8.8.8']);
    const destinations = new PublicDestinations({ resolve });
    const before = hits.length;
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '[64:ff9b::7f00:1]', '169.254.169.254']) {
      expect({ host, refused: isDestinationNotPublic(await failureOf(destinations.fetch(`http://${host}:${port}/`))) }).toEqual({
        host,
        refused: true,
      });
    }
    expect(resolve.calls).toEqual([]);
    expect(hits.length).toBe(before);
    await destinations.close();
  });

  it("lets an operator's configured origins, or allowPrivate, reach private servers with the Host they name", async () => {
    const origin = `http://127.0.0.1:${port}`;
    const trusted = new PublicDestinations({ trustedOrigins: [origin], resolve: scripted(['127.0.0.1']) });
    expect(await (await trusted.fetch(`${origin}/configured`)).text()).toBe('internal secret');
    const open = new PublicDestinations({ allowPrivate: true, resolve: scripted(['127.0.0.1']) });
    expect((await open.fetch(`http://localhost:${port}/allowed`)).status).toBe(200);
    expect(hits.slice(-2)).toEqual([
      { path: '/configured', host: `127.0.0.1:${port}` },
      { path: '/allowed', host: `localhost:${port}` },
    ]);
    await Promise.all([trusted.close(), open.close()]);
  });

  it("sends a FormData body (Node's own class) as multipart", async () => {
    const destinations = new PublicDestinations({ allowPrivate: true });
    const form = new FormData();
    form.set('file', new Blob(['picture bytes'], { type: 'image/png' }), 'a.png');
    form.set('description', 'a sunset');
    const echoed = (await (await destinations.fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body: form })).json()) as {
      type: string;
      body: string;
    };
    expect(echoed.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(echoed.body).toContain('filename="a.png"');
    expect(echoed.body).toContain('picture bytes');
    expect(echoed.body).toContain('a sunset');
    await destinations.close();
  });

  it('gives http.request the same rule through lookupFor', async () => {
    const destinations = new PublicDestinations({ resolve: scripted(['10.1.2.3']) });
    const url = new URL(`http://internal.example.com:${port}/via-http`);
    const lookup = destinations.lookupFor(url);
    expect(lookup).toBeDefined();
    const error = await new Promise<unknown>((resolve) => {
      const req = request(url, { lookup }, () => resolve(new Error('answered')));
      req.on('error', resolve);
      req.end();
    });
    expect(isDestinationNotPublic(error)).toBe(true);
    expect(() => destinations.lookupFor(new URL(`http://10.0.0.1:${port}/`))).toThrow(/not on a public address/);
    await destinations.close();
  });

  it('hands the socket the very addresses it checked, as one address or all of them', async () => {
    const lookup = publicOnlyLookup(scripted(['8.8.8.8', '2001:4860:4860::8888']));
    const one = await new Promise((resolve) =>
      lookup('dns.example', { family: 6 }, (error, address, family) => resolve({ error, address, family })),
    );
    expect(one).toEqual({ error: null, address: '2001:4860:4860::8888', family: 6 });
    const all = await new Promise((resolve) => lookup('dns.example', { all: true }, (error, addresses) => resolve({ error, addresses })));
    expect(all).toEqual({
      error: null,
      addresses: [
        { address: '8.8.8.8', family: 4 },
        { address: '2001:4860:4860::8888', family: 6 },
      ],
    });
  });
});
