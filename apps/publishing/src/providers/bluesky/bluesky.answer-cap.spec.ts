import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError } from '../provider-error.js';
import { MAX_ANSWER_BYTES, ProviderHttp } from '../provider-http.js';
import { BlueskyProvider } from './bluesky.provider.js';

/** Polls `condition` every 20 ms for at most `ms`. */
async function eventually(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A PDS that answers createSession with an endless JSON body (or, for a
 * small answer, a proper session): the XRPC agent reads answers whole, so
 * without a cap inside its fetch one such server fills publishing's memory.
 */
describe('Bluesky: answers read with a byte cap inside the XRPC agent', () => {
  let server: Server;
  let origin: string;
  let sentBytes = 0;
  let closedEarly = false;

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      let body = '';
      for await (const part of req) body += String(part);
      if (body.includes('small')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'InvalidRequest', message: 'small and readable' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => {
        closedEarly = !res.writableFinished;
      });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.write('{"did": "did:plc:huge", "padding": "');
      // Endless: keep writing while the client reads, until it goes away.
      const pump = () => {
        while (!res.destroyed && sentBytes < 64 * MAX_ANSWER_BYTES) {
          sentBytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('"}');
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails a huge answer as unavailable past the cap, stops reading it, and still reads small ones', async () => {
    const provider = new BlueskyProvider({ bluesky: origin }, new ProviderHttp({ bluesky: origin }), 10_000);
    const signIn = provider.signIn(
      { instanceUrl: 'https://bsky.social', identifier: 'ada.example', password: 'app-password' },
      AbortSignal.timeout(10_000),
    );
    const error = await signIn.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      failure: 'unavailable',
      message: expect.stringContaining(`more than the ${MAX_ANSWER_BYTES} bytes`) as unknown,
      call: { status: 200, sent: true },
    });
    // The rest was never read: the connection closed long before the server's 64 MiB were out.
    await eventually(() => closedEarly);
    expect(sentBytes).toBeLessThan(16 * MAX_ANSWER_BYTES);

    const small = provider.signIn(
      { instanceUrl: 'https://bsky.social', identifier: 'small.example', password: 'app-password' },
      AbortSignal.timeout(10_000),
    );
    await expect(small).rejects.toMatchObject({ failure: 'refused', networkCode: 'InvalidRequest', call: { status: 400 } });
  });
});
