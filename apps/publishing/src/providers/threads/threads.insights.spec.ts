import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { callControl, type FakeThreads, type FakeThreadsRequest, startFakeThreads } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { Problem } from '@social/platform';
import { outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderError } from '../provider-error.js';
import { ProviderHttp } from '../provider-http.js';
import type { ProviderAccount } from '../social-provider.js';
import { ThreadsNetwork } from './threads.network.js';
import { ThreadsProvider } from './threads.provider.js';

/** Threads insights (account followers, each post's counters) against the fake Threads API. */
describe('Threads insights (against the fake Threads API)', () => {
  let fake: FakeThreads;
  let provider: ThreadsProvider;
  let account: ProviderAccount;
  let token: string;
  let userId: string;

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const requests = (): Promise<FakeThreadsRequest[]> => control('GET', '/requests');
  const publish = async (words: string) =>
    (await provider.publish(account, { marker: randomUUID(), parts: [outgoingPart(words)] })).externalId;

  beforeAll(async () => {
    fake = await startFakeThreads();
    provider = new ThreadsProvider(new ThreadsNetwork(), new ProviderHttp({ threads: fake.origin }), 2_000, {
      firstWaitMs: 10,
      maxWaitMs: 20,
      limitMs: 2_000,
    });
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
    token = `tok-${randomUUID()}`;
    userId = ((await control('POST', '/accounts', { access_token: token, username: 'ada', followers_count: 321 })) as { id: string }).id;
    account = {
      id: randomUUID(),
      platform: 'threads',
      externalId: userId,
      username: 'ada',
      instanceUrl: '',
      grant: { accessToken: token },
    };
  });

  afterAll(async () => {
    await fake.stop();
  });

  it('reads followers from threads_insights (followers_count); following and posts are not in the API', async () => {
    expect(await provider.fetchAccountMetrics(account)).toEqual({ followers: 321, following: 0, posts: 0 });
    const [request] = await requests();
    expect(request).toMatchObject({ method: 'GET', path: `/v1.0/${userId}/threads_insights`, query: { metric: 'followers_count' } });
  });

  it('reads each post’s insights: replies are comments, reposts and quotes are reposts', async () => {
    const first = await publish('First');
    const second = await publish('Second');
    await control('POST', `/posts/${first}/insights`, { views: 1200, likes: 40, replies: 7, reposts: 3, quotes: 2 });
    await control('DELETE', '/requests');
    expect(await provider.fetchPostMetrics(account, [first, second])).toEqual([
      { externalId: first, views: 1200, likes: 40, comments: 7, reposts: 5 },
      { externalId: second, views: 0, likes: 0, comments: 0, reposts: 0 },
    ]);
    const sent = await requests();
    expect(sent.map((request) => request.path).sort()).toEqual([`/v1.0/${first}/insights`, `/v1.0/${second}/insights`].sort());
    expect(sent[0].query.metric).toBe('views,likes,replies,reposts,quotes');
  });

  it('leaves out a post Threads does not know (400 code 100, subcode 33)', async () => {
    const known = await publish('Known');
    expect((await provider.fetchPostMetrics(account, ['17841000000000001', known])).map((metrics) => metrics.externalId)).toEqual([known]);
  });

  it('fails the call when Threads cannot answer (5xx), and renews a refused token once', async () => {
    const known = await publish('Known');
    await control('POST', '/failures', { path: `/v1.0/${known}/insights`, status: 503 });
    await expect(provider.fetchPostMetrics(account, [known])).rejects.toBeInstanceOf(ProviderError);
    let renewals = 0;
    const expired: ProviderAccount = {
      ...account,
      grant: { accessToken: 'expired-token' },
      renewGrant: async () => {
        renewals += 1;
        return { accessToken: token };
      },
    };
    expect((await provider.fetchAccountMetrics(expired)).followers).toBe(321);
    expect(renewals).toBe(1);
  });

  it('keeps refusing follow recommendations and following: the Threads API offers neither', async () => {
    await expect(provider.fetchFollowRecommendations(account, 5)).rejects.toBeInstanceOf(Problem);
    await expect(provider.follow(account, '123')).rejects.toMatchObject({ code: 'provider_capability_unavailable' });
  });
});
