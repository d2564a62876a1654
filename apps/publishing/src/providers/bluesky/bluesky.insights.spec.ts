import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { callControl, FakeBluesky, FakeBlueskyRecord, startFakeBluesky } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { toFailedCall } from '../../provider-insights/call-result.js';
import { ProviderHttp } from '../provider-http.js';
import type { ProviderAccount } from '../social-provider.js';
import { BlueskyProvider } from './bluesky.provider.js';

/**
 * What insights asks of the Bluesky adapter (issue 15), over real HTTP
 * against the fake PDS: getProfile counters, getPosts metrics,
 * getSuggestions, follow records, and how each failure becomes a ProviderCallResult.
 */
describe('Bluesky insights calls (against a fake PDS)', () => {
  let fake: FakeBluesky;
  let provider: BlueskyProvider;
  let account: ProviderAccount;
  let graceDid: string;
  const handle = 'ada.bsky.social';
  const password = `app-${randomUUID()}`;

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const caught = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected the call to fail');
      },
      (error: unknown) => error,
    );
  const publish = async (text: string) =>
    (await provider.publish(account, { marker: uuidv7(), parts: [{ text, title: '', link: '', media: [] }] })).externalId;

  beforeAll(async () => {
    fake = await startFakeBluesky();
    await control('POST', '/accounts', { handle, password, display_name: 'Ada', followers_count: 210, follows_count: 33 });
    graceDid = (await control('POST', '/accounts', { handle: 'grace.bsky.social', password: 'other', display_name: 'Grace' })).did;
    // No test here waits for a time limit: a generous one keeps a loaded machine from failing a call to the fake.
    provider = new BlueskyProvider({ bluesky: fake.origin }, new ProviderHttp({ bluesky: fake.origin }), 10_000);
    const signedIn = await provider.signIn(
      { instanceUrl: 'https://bsky.social', identifier: handle, password },
      AbortSignal.timeout(10_000),
    );
    account = {
      id: randomUUID(),
      platform: 'bluesky',
      externalId: signedIn.identity.externalId,
      username: handle,
      instanceUrl: signedIn.instanceUrl,
      grant: signedIn.grant,
    };
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
  });

  afterAll(async () => {
    await fake.stop();
  });

  it("reads the account's counters with app.bsky.actor.getProfile", async () => {
    await publish(`one ${randomUUID()}`);
    await expect(provider.fetchAccountMetrics(account)).resolves.toEqual({ followers: 210, following: 33, posts: 1 });
  });

  it('reads posts with app.bsky.feed.getPosts: likes, replies, reposts plus quotes, no views; a deleted one left out', async () => {
    const first = await publish(`first ${randomUUID()}`);
    const second = await publish(`second ${randomUUID()}`);
    await control('POST', '/post-counts', { uri: first, likeCount: 40, replyCount: 6, repostCount: 8, quoteCount: 2 });
    await control('POST', '/post-counts', { uri: second, likeCount: 0, replyCount: 0, repostCount: 0, quoteCount: 0 });
    const gone = `at://${account.externalId}/app.bsky.feed.post/3kabcdefghijk`;
    await expect(provider.fetchPostMetrics(account, [first, gone, second])).resolves.toEqual([
      { externalId: first, views: 0, likes: 40, comments: 6, reposts: 10 },
      { externalId: second, views: 0, likes: 0, comments: 0, reposts: 0 },
    ]);
  });

  it('answers app.bsky.actor.getSuggestions, best first', async () => {
    const recommendations = await provider.fetchFollowRecommendations(account, 5);
    expect(recommendations).toEqual([
      expect.objectContaining({
        remoteAccountId: graceDid,
        handle: 'grace.bsky.social',
        displayName: 'Grace',
        profileUrl: 'https://bsky.app/profile/grace.bsky.social',
        score: 1,
      }),
    ]);
  });

  it('follows by creating an app.bsky.graph.follow record naming the DID', async () => {
    await expect(provider.follow(account, graceDid)).resolves.toBe('following');
    const follows = async () =>
      ((await control('GET', '/records')) as FakeBlueskyRecord[]).filter((record) => record.collection === 'app.bsky.graph.follow');
    expect(await follows()).toEqual([
      expect.objectContaining({
        did: account.externalId,
        value: expect.objectContaining({ $type: 'app.bsky.graph.follow', subject: graceDid }),
      }),
    ]);
    // Following again: the profile says so already; no second record.
    await expect(provider.follow(account, graceDid)).resolves.toBe('following');
    expect(await follows()).toHaveLength(1);
    // An account the AppView has no profile for is not_found.
    expect(toFailedCall(await caught(provider.follow(account, 'did:plc:nobodyhere0000000000000')), 'bluesky').result).toMatchObject({
      status: 'not_found',
    });
  });

  it("429 is rate_limited until the PDS's ratelimit-reset (epoch seconds), exactly", async () => {
    const reset = Math.floor(Date.now() / 1000) + 300;
    await control('POST', '/failures', {
      path: '/xrpc/app.bsky.actor.getProfile',
      status: 429,
      headers: { 'ratelimit-limit': '3000', 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset) },
      body: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
    });
    const error = await caught(provider.fetchAccountMetrics(account));
    expect(toFailedCall(error, 'bluesky').result).toEqual({
      status: 'rate_limited',
      retry_at: new Date(reset * 1000).toISOString(),
      code: 'provider_rate_limited',
      message: expect.any(String),
    });
  });

  it('a refused session (401) is permission_required and asks for reconnect_required', async () => {
    await control('POST', '/failures', {
      path: '/xrpc/app.bsky.feed.getPosts',
      status: 401,
      body: { error: 'AuthenticationRequired', message: 'Authentication Required' },
    });
    const error = await caught(provider.fetchPostMetrics(account, [`at://${account.externalId}/app.bsky.feed.post/3kabcdefghijk`]));
    expect(toFailedCall(error, 'bluesky')).toEqual({
      result: { status: 'permission_required', missing_scopes: [], code: 'provider_auth_rejected', message: expect.any(String) },
      reconnect: true,
    });
  });

  it('5xx is temporarily_unavailable', async () => {
    await control('POST', '/failures', {
      path: '/xrpc/app.bsky.actor.getSuggestions',
      status: 502,
      body: { error: 'UpstreamFailure', message: 'Upstream Failure' },
    });
    expect(toFailedCall(await caught(provider.fetchFollowRecommendations(account, 5)), 'bluesky')).toMatchObject({
      result: { status: 'temporarily_unavailable', code: 'provider_error' },
      reconnect: false,
    });
  });
});
