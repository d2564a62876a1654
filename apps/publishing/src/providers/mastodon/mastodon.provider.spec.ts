import { describe, expect, it } from '@jest/globals';
import { ProviderHttp } from '../provider-http.js';
import { MastodonNetwork } from './mastodon.network.js';
import { MastodonProvider } from './mastodon.provider.js';

const account = {
  id: 'acc',
  platform: 'mastodon' as const,
  externalId: '109@social.example',
  username: 'ada@social.example',
  instanceUrl: 'https://social.example',
  grant: { accessToken: 'tok' },
};

/** A Mastodon server answering by method and path, recording what it was asked. */
function server(routes: Record<string, unknown>) {
  const asked: Array<{ method: string; url: string; authorization: string | null; body: unknown }> = [];
  const http = new ProviderHttp({}, undefined, async (url, init) => {
    const target = new URL(String(url));
    asked.push({
      method: init?.method ?? 'GET',
      url: String(url),
      authorization: new Headers(init?.headers).get('authorization'),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    const answer = routes[`${init?.method} ${target.pathname}`];
    return answer === undefined
      ? new Response('{"error":"Record not found"}', { status: 404 })
      : new Response(JSON.stringify(answer), { status: 200 });
  });
  return { provider: new MastodonProvider(new MastodonNetwork(), http, 1_000), asked };
}

describe('Mastodon operations', () => {
  it('refuses metrics of an account without a grant, never pretending', async () => {
    const { provider, asked } = server({});
    await expect(provider.fetchAccountMetrics({ ...account, grant: null })).rejects.toMatchObject({ failure: 'refused' });
    expect(asked).toEqual([]);
  });

  it('reads account and post counters (no views on Mastodon)', async () => {
    const { provider } = server({
      'GET /api/v1/accounts/verify_credentials': { id: '109', followers_count: 12, following_count: 3, statuses_count: 40 },
      'GET /api/v1/statuses/113': { id: '113', favourites_count: 5, replies_count: 1, reblogs_count: 2 },
    });
    await expect(provider.fetchAccountMetrics(account)).resolves.toEqual({ followers: 12, following: 3, posts: 40 });
    await expect(provider.fetchPostMetrics(account, ['113'])).resolves.toEqual([
      { externalId: '113', views: 0, likes: 5, comments: 1, reposts: 2 },
    ]);
    // A status the server no longer has is left out (as Bluesky's getPosts leaves deleted posts out).
    await expect(provider.fetchPostMetrics(account, ['gone'])).resolves.toEqual([]);
  });

  it("maps the server's follow suggestions, best first", async () => {
    const suggested = (id: string) => ({
      id,
      acct: `peer${id}@other.example`,
      username: `peer${id}`,
      display_name: '',
      avatar: 'https://other.example/a.png',
      note: '<p>Writes about <a href="#">tea</a> &amp; code</p>',
      url: `https://other.example/@peer${id}`,
      followers_count: 100,
      following_count: 10,
    });
    const { provider, asked } = server({
      'GET /api/v2/suggestions': [
        { source: 'global', sources: ['featured'], account: suggested('1') },
        { sources: ['friends_of_friends'], account: suggested('2') },
        { account: {} },
      ],
    });
    const recommendations = await provider.fetchFollowRecommendations(account, 5);
    expect(asked[0].url).toBe('https://social.example/api/v2/suggestions?limit=5');
    expect(recommendations).toEqual([
      {
        remoteAccountId: '1',
        handle: 'peer1@other.example',
        displayName: 'peer1',
        avatarUrl: 'https://other.example/a.png',
        bio: 'Writes about tea & code',
        profileUrl: 'https://other.example/@peer1',
        followersCount: 100,
        followingCount: 10,
        mutualCount: 0,
        score: 1,
        signals: ['featured'],
      },
      expect.objectContaining({ remoteAccountId: '2', score: 0.67, signals: ['friends_of_friends'] }),
    ]);
  });
});
