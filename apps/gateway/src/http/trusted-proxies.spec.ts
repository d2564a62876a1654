import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { gatewaySettings } from '../config.js';

/** The client address the gateway uses for per-IP limits, under each TRUSTED_PROXIES form (docs/decisions.md); the peer is loopback. */
async function clientIp(trustedProxies: string | undefined, forwardedFor?: string): Promise<string> {
  const app = Fastify({ trustProxy: gatewaySettings.TRUSTED_PROXIES(trustedProxies, 'TRUSTED_PROXIES') });
  app.get('/', async (request) => request.ip);
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const { port } = app.server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
    return await response.text();
  } finally {
    await app.close();
  }
}

describe('TRUSTED_PROXIES', () => {
  it('by default trusts no hop: X-Forwarded-For from anyone is ignored', async () => {
    expect(await clientIp(undefined, '1.2.3.4')).toBe('127.0.0.1');
    expect(await clientIp('', '1.2.3.4')).toBe('127.0.0.1');
  });

  it('believes only the listed proxies, and only as far as the first hop it does not trust', async () => {
    expect(await clientIp('127.0.0.0/8', '1.2.3.4')).toBe('1.2.3.4');
    // A peer that is not a listed proxy cannot pick its address.
    expect(await clientIp('10.0.0.0/8, ::1/128', '1.2.3.4')).toBe('127.0.0.1');
    // An entry the client forged in front stays behind the address the proxy saw.
    expect(await clientIp('127.0.0.1', '6.6.6.6, 198.51.100.7')).toBe('198.51.100.7');
  });

  it('as a hop count trusts that many hops nearest the gateway', async () => {
    expect(await clientIp('1', '6.6.6.6, 198.51.100.7')).toBe('198.51.100.7');
    expect(await clientIp('2', '6.6.6.6, 198.51.100.7')).toBe('6.6.6.6');
  });

  it('refuses what is neither addresses nor a count', () => {
    for (const bad of ['everything', '10.0.0.0/33', '1.2.3.4/8/1', '0', '11', 'true']) {
      expect(() => gatewaySettings.TRUSTED_PROXIES(bad, 'TRUSTED_PROXIES')).toThrow(/TRUSTED_PROXIES/);
    }
  });
});
