import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { callControl, type FakeX, type FakeXFollow, startFakeX } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { outgoingPart } from '../outgoing-post.fixtures.js';
import { MissingScopes } from '../provider-error.js';
import { ProviderHttp } from '../provider-http.js';
import type { ProviderAccount } from '../social-provider.js';
import { XNetwork } from './x.network.js';
import { XProvider } from './x.provider.js';

/** X's counters and following through the adapter, against the fake X API (libs/testing). */
describe('X insights (against a fake X API)', () => {
  let fake: FakeX;
  let account: ProviderAccount;
  let provider: XProvider;
  const paths: string[] = [];

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const publish = async (text: string) =>
    (await provider.publish(account, { marker: randomUUID(), parts: [outgoingPart(text)] })).externalId;

  beforeAll(async () => {
    fake = await startFakeX();
    const token = `tok-${randomUUID()}`;
    const me = await control('POST', '/accounts', { access_token: token, username: 'ada', followers_count: 321, following_count: 45 });
    account = {
      id: randomUUID(),
      platform: 'x',
      externalId: me.id,
      username: 'ada',
      instanceUrl: '',
      grant: { accessToken: token, scopes: new XNetwork().scopes.slice() },
    };
    const recording: typeof fetch = (input, init) => {
      const url = new URL(String(input));
      paths.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`);
      return fetch(input, init);
    };
    provider = new XProvider(new XNetwork(), new ProviderHttp({ x: fake.origin }, undefined, recording), 2_000);
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
    paths.length = 0;
  });

  afterAll(async () => {
    await fake.stop();
  });

  it("reads the account's counters from GET /2/users/me public_metrics", async () => {
    await publish('one');
    await publish('two');
    paths.length = 0;
    expect(await provider.fetchAccountMetrics(account)).toEqual({ followers: 321, following: 45, posts: 2 });
    expect(paths).toEqual(['GET /2/users/me?user.fields=public_metrics']);
  });

  it("maps a post's public_metrics (impressions are views, retweets and quotes reposts), leaving out posts X no longer has", async () => {
    const id = await publish('counted');
    await control('POST', `/tweets/${id}/metrics`, {
      impression_count: 900,
      like_count: 12,
      reply_count: 3,
      retweet_count: 4,
      quote_count: 2,
    });
    paths.length = 0;
    expect(await provider.fetchPostMetrics(account, [id, '1999999999999999999'])).toEqual([
      { externalId: id, views: 900, likes: 12, comments: 3, reposts: 6 },
    ]);
    expect(paths).toEqual([`GET /2/tweets?ids=${id},1999999999999999999&tweet.fields=public_metrics`]);
  });

  it('asks for at most 100 ids a call', async () => {
    const id = await publish('many');
    paths.length = 0;
    const ids = [id, ...Array.from({ length: 150 }, (_, index) => String(1_900_000_000_000_000_000n + BigInt(index)))];
    const metrics = await provider.fetchPostMetrics(account, ids);
    expect(metrics.map((item) => item.externalId)).toEqual([id]);
    expect(paths.map((path) => new URL(path.slice(4), 'http://x').searchParams.get('ids')!.split(',').length)).toEqual([100, 51]);
  });

  it('follows with POST /2/users/:id/following; a protected account answers pending_follow, which is a request', async () => {
    const open = await control('POST', '/accounts', { access_token: `tok-${randomUUID()}`, username: 'grace' });
    const locked = await control('POST', '/accounts', { access_token: `tok-${randomUUID()}`, username: 'hedy', protected: true });
    expect(await provider.follow(account, open.id)).toBe('following');
    expect(await provider.follow(account, locked.id)).toBe('requested');
    expect(paths).toEqual([`POST /2/users/${account.externalId}/following`, `POST /2/users/${account.externalId}/following`]);
    expect((await control('GET', '/follows')) as FakeXFollow[]).toEqual([
      { source_user_id: account.externalId, target_user_id: open.id, pending_follow: false },
      { source_user_id: account.externalId, target_user_id: locked.id, pending_follow: true },
    ]);
  });

  it('refuses to follow for a grant without follows.write, sending nothing', async () => {
    const older = { ...account, grant: { accessToken: account.grant!.accessToken, scopes: ['tweet.read', 'tweet.write', 'users.read'] } };
    await expect(provider.follow(older, '12')).rejects.toBeInstanceOf(MissingScopes);
    expect(paths).toEqual([]);
  });

  it('keeps follow recommendations unavailable: X API v2 offers none', async () => {
    await expect(provider.fetchFollowRecommendations(account, 5)).rejects.toMatchObject({ code: 'provider_capability_unavailable' });
  });
});
