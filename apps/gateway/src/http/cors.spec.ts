import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { applyCors, parseAllowedOrigins } from './cors.js';

describe('CORS for the web console on its own host', () => {
  let app: FastifyInstance;
  let base: string;
  const consoleOrigin = 'https://console.example.com';

  beforeAll(async () => {
    app = Fastify();
    applyCors(app, parseAllowedOrigins(` ${consoleOrigin}/ , https://other.example.com`));
    app.get('/publications', async () => ({ publications: [] }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(() => app.close());

  it('reads origins as browsers send them', () => {
    expect([...parseAllowedOrigins('https://a.example/x, http://b.example:8080')]).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(parseAllowedOrigins(undefined).size).toBe(0);
  });

  it('answers a preflight from an allowed origin with what the console sends', async () => {
    const response = await fetch(`${base}/publications`, {
      method: 'OPTIONS',
      headers: { origin: consoleOrigin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(consoleOrigin);
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
  });

  it('lets an allowed origin read answers and their request id, and no other origin', async () => {
    const allowed = await fetch(`${base}/publications`, { headers: { origin: consoleOrigin } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(consoleOrigin);
    expect(allowed.headers.get('access-control-expose-headers')).toContain('x-request-id');
    const other = await fetch(`${base}/publications`, { headers: { origin: 'https://evil.example' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${base}/publications`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
