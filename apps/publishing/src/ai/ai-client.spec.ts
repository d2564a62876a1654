import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InstanceSettings } from '@social/platform';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { AiClient } from './ai-client.js';

/** Issue 23: the AI client follows no redirect (one to a private address would carry our key and prompt inside our network). */
describe('AiClient and redirects', () => {
  let server: Server;
  let base: string;
  const internalHits: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/internal')) {
        internalHits.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[{"message":{"content":"{}"}}]}');
        return;
      }
      res.writeHead(307, { location: `http://127.0.0.1:${(server.address() as AddressInfo).port}/internal/metadata` }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers a redirect as a provider error (502) and never sends the request on', async () => {
    const client = new AiClient(
      InstanceSettings.withFetch({}, async () => ({})),
      pino({ level: 'silent' }),
    );
    await expect(
      client.completeJson({ baseUrl: base, apiKey: 'sk-secret', model: 'm' }, [{ role: 'user', content: 'hi' }], Date.now() + 5_000),
    ).rejects.toMatchObject({
      status: 502,
      code: 'ai_provider_error',
    });
    expect(internalHits).toEqual([]);
  });
});
