import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call, expectProblem, registerUser } from '../support/api.js';
import { GatewayReplica, startGatewayReplica } from '../support/gateway-replica.js';

const LIMIT = 1200;

/** Sends `count` authenticated reads, `parallel` at a time, and tallies the statuses. */
async function burst(base: string | undefined, token: string, count: number, parallel = 25): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  for (let sent = 0; sent < count; sent += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - sent) }, () =>
      base
        ? fetch(`${base}/auth/me`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => (await r.arrayBuffer(), r.status))
        : call('GET', '/auth/me', { token }).then((r) => r.status),
    );
    for (const status of await Promise.all(batch)) statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return statuses;
}

describe('gateway: per-token rate limit (1,200 requests a minute, across replicas)', () => {
  let second: GatewayReplica;
  let secondBase: string;

  beforeAll(async () => {
    second = await startGatewayReplica();
    secondBase = second.baseUrl;
  });

  afterAll(async () => {
    await second?.stop();
  });

  it('refuses request 1,201 of a minute with 429 and Retry-After; other tokens go on', async () => {
    const heavy = await registerUser();
    const light = await registerUser();
    // Stay clear of a minute boundary, where the window (rightly) starts afresh.
    if (Date.now() % 60_000 > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 100));
    const statuses = await burst(undefined, heavy.token, LIMIT);
    expect(statuses).toEqual({ 200: LIMIT });
    const refused = await call('GET', '/auth/me', { token: heavy.token });
    expectProblem(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await call('GET', '/auth/me', { token: light.token })).status).toBe(200);
  }, 90_000);

  it('holds the limit across gateway replicas', async () => {
    const user = await registerUser();
    if (Date.now() % 60_000 > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 100));
    expect(await burst(undefined, user.token, 800)).toEqual({ 200: 800 });
    // Replicas share their counts about once a second.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const onSecond = await burst(secondBase, user.token, 500);
    expect(onSecond[200]).toBe(LIMIT - 800);
    expect(onSecond[429]).toBe(500 - (LIMIT - 800));
  }, 90_000);
});
