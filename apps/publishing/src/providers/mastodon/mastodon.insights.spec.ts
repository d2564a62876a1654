import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { callControl, FakeMastodon, startFakeMastodon } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { toFailedCall } from '../../provider-insights/call-result.js';
import { ProviderHttp } from '../provider-http.js';
import type { ProviderAccount } from '../social-provider.js';
import { MastodonNetwork } from './mastodon.network.js';
import { MastodonProvider } from './mastodon.provider.js';

/**
 * What insights asks of the Mastodon adapter (issue 15), over real HTTP
 * against the fake Mastodon server: counters, post metrics, suggestions,
 * follows, and how each failure of the server becomes a ProviderCallResult.
 */
describe('Mastodon insights calls (against a fake Mastodon server)', () => {
  let fake: FakeMastodon;
  let account: ProviderAccount;
  let provider: MastodonProvider;
  let grace: { id: string };
  let linus: { id: string };

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const caught = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected the call to fail');
      },
      (error: unknown) => error,
    );
  const publish = async (text: string) =>
    (await provider.publish(account, { marker: randomUUID(), parts: [{ text, title: '', link: '', media: [] }] })).externalId;

  beforeAll(async () => {
    fake = await startFakeMastodon();
    const token = `tok-${randomUUID()}`;
    const me = await control('POST', '/accounts', { access_token: token, username: 'ada', followers_count: 321, following_count: 45 });
    grace = await control('POST', '/accounts', {
      access_token: `tok-${randomUUID()}`,
      username: 'grace',
      display_name: 'Grace',
      followers_count: 900,
      following_count: 12,
    });
    linus = await control('POST', '/accounts', { access_token: `tok-${randomUUID()}`, username: 'linus', locked: true });
    const host = new URL(fake.origin).host;
    account = {
      id: randomUUID(),
      platform: 'mastodon',
      externalId: `${me.id}@${host}`,
      username: `ada@${host}`,
      instanceUrl: fake.origin,
      grant: { accessToken: token },
    };
    provider = new MastodonProvider(new MastodonNetwork(), new ProviderHttp({}), 1_000);
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
  });

  afterAll(async () => {
    await fake.stop();
  });

  it("reads the account's counters from verify_credentials", async () => {
    await publish(`one ${randomUUID()}`);
    await publish(`two ${randomUUID()}`);
    await expect(provider.fetchAccountMetrics(account)).resolves.toEqual({ followers: 321, following: 45, posts: 2 });
  });

  it('reads each status: favourites, replies and reblogs as the server counts them, no views, a deleted one left out', async () => {
    const first = await publish(`first ${randomUUID()}`);
    const second = await publish(`second ${randomUUID()}`);
    await control('POST', `/statuses/${first}/counts`, { favourites_count: 17, replies_count: 4, reblogs_count: 9 });
    await control('POST', `/statuses/${second}/counts`, { favourites_count: 1, replies_count: 0, reblogs_count: 0 });
    await expect(provider.fetchPostMetrics(account, [first, '999999', second])).resolves.toEqual([
      { externalId: first, views: 0, likes: 17, comments: 4, reposts: 9 },
      { externalId: second, views: 0, likes: 1, comments: 0, reposts: 0 },
    ]);
  });

  it('reads many statuses a few at a time and answers them in the order asked; one failing status fails the call', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 15; i += 1) ids.push(await publish(`post ${i} ${randomUUID()}`));
    for (const [i, id] of ids.entries()) await control('POST', `/statuses/${id}/counts`, { favourites_count: i });
    const answer = await provider.fetchPostMetrics(account, [...ids].reverse());
    expect(answer.map((metrics) => [metrics.externalId, metrics.likes])).toEqual([...ids].reverse().map((id) => [id, ids.indexOf(id)]));
    await control('POST', '/failures', { path: `/api/v1/statuses/${ids[7]}`, status: 503 });
    const error = await caught(provider.fetchPostMetrics(account, ids));
    expect(toFailedCall(error, 'mastodon').result).toMatchObject({ status: 'temporarily_unavailable', code: 'provider_error' });
  });

  it("answers the server's suggestions with their counters, at most `limit`", async () => {
    const all = await provider.fetchFollowRecommendations(account, 10);
    // The fake suggests its newest accounts first.
    expect(all.map((recommendation) => recommendation.remoteAccountId)).toEqual([linus.id, grace.id]);
    expect(all[1]).toMatchObject({
      handle: 'grace',
      displayName: 'Grace',
      followersCount: 900,
      followingCount: 12,
      bio: 'Fake & friendly',
      signals: ['featured'],
    });
    expect(all[0].score).toBeGreaterThan(all[1].score);
    await expect(provider.fetchFollowRecommendations(account, 1)).resolves.toHaveLength(1);
  });

  it('follows: `following` for an open account, `requested` for a locked one; the server records both', async () => {
    await expect(provider.follow(account, grace.id)).resolves.toBe('following');
    await expect(provider.follow(account, linus.id)).resolves.toBe('requested');
    const me = account.externalId.split('@')[0];
    expect(await control('GET', '/follows')).toEqual([
      { account_id: me, target_id: grace.id, requested: false },
      { account_id: me, target_id: linus.id, requested: true },
    ]);
  });

  it(
    'a grant naming its scopes without write:follows is refused ' + 'before anything is sent; wider scopes (write, follow) may follow',
    async () => {
      const narrow = { ...account, grant: { ...account.grant!, scopes: ['read:accounts', 'write:statuses'] } };
      const error = await caught(provider.follow(narrow, grace.id));
      expect(toFailedCall(error, 'mastodon')).toMatchObject({
        result: { status: 'permission_required', missing_scopes: ['write:follows'], code: 'provider_scope_missing' },
        reconnect: false,
      });
      expect(await control('GET', '/follows')).toEqual([]);
      await expect(provider.follow({ ...account, grant: { ...account.grant!, scopes: ['read', 'write'] } }, grace.id)).resolves.toBe(
        'following',
      );
    },
  );

  it('an unknown account to follow is not_found', async () => {
    const error = await caught(provider.follow(account, '424242'));
    expect(toFailedCall(error, 'mastodon')).toEqual({
      result: { status: 'not_found', code: 'provider_not_found', message: expect.any(String) },
      reconnect: false,
    });
  });

  it("429 is rate_limited until the server's X-RateLimit-Reset, exactly", async () => {
    const reset = new Date(Date.now() + 7 * 60_000).toISOString();
    await control('POST', '/failures', {
      path: '/api/v1/accounts/verify_credentials',
      status: 429,
      headers: { 'x-ratelimit-reset': reset },
      body: { error: 'Too many requests' },
    });
    const error = await caught(provider.fetchAccountMetrics(account));
    expect(toFailedCall(error, 'mastodon').result).toEqual({
      status: 'rate_limited',
      retry_at: reset,
      code: 'provider_rate_limited',
      message: expect.any(String),
    });
  });

  it('429 without a reset header waits the default minute; Retry-After in seconds is honoured', async () => {
    await control('POST', '/failures', { path: '/api/v2/suggestions', status: 429 });
    const now = Date.now();
    const plain = toFailedCall(await caught(provider.fetchFollowRecommendations(account, 5)), 'mastodon', now);
    expect(plain.result).toMatchObject({ status: 'rate_limited', retry_at: new Date(now + 60_000).toISOString() });
    await control('POST', '/failures', { path: '/api/v2/suggestions', status: 429, headers: { 'retry-after': '30' } });
    const before = Date.now();
    const waited = toFailedCall(await caught(provider.fetchFollowRecommendations(account, 5)), 'mastodon');
    const retryAt = Date.parse((waited.result as { retry_at: string }).retry_at);
    expect(retryAt).toBeGreaterThanOrEqual(before + 30_000);
    expect(retryAt).toBeLessThanOrEqual(Date.now() + 30_000);
  });

  it('a refused token (401) is permission_required and asks for the account to be marked reconnect_required', async () => {
    const error = await caught(provider.fetchAccountMetrics({ ...account, grant: { accessToken: 'revoked' } }));
    expect(toFailedCall(error, 'mastodon')).toEqual({
      result: { status: 'permission_required', missing_scopes: [], code: 'provider_auth_rejected', message: expect.any(String) },
      reconnect: true,
    });
  });

  it('5xx and a timeout are temporarily_unavailable; another refusal is failed', async () => {
    await control('POST', '/failures', { path: '/api/v1/accounts/verify_credentials', status: 503, headers: { 'retry-after': '120' } });
    const down = toFailedCall(await caught(provider.fetchAccountMetrics(account)), 'mastodon');
    expect(down.result).toMatchObject({ status: 'temporarily_unavailable', code: 'provider_error' });
    expect(Date.parse((down.result as { retry_at: string }).retry_at)).toBeGreaterThan(Date.now() + 110_000);
    await control('POST', '/failures', { path: '/api/v1/accounts/verify_credentials', delay_ms: 1_500 });
    expect(toFailedCall(await caught(provider.fetchAccountMetrics(account)), 'mastodon').result).toMatchObject({
      status: 'temporarily_unavailable',
      code: 'provider_timeout',
    });
    await control('POST', '/failures', { path: '/api/v1/accounts/verify_credentials', status: 422 });
    expect(toFailedCall(await caught(provider.fetchAccountMetrics(account)), 'mastodon')).toMatchObject({
      result: { status: 'failed', code: 'provider_rejected' },
      reconnect: false,
    });
  });
});
