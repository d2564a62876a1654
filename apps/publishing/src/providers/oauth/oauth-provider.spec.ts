import { describe, expect, it } from '@jest/globals';
import { ProviderHttp } from '../provider-http.js';
import { FacebookNetwork } from '../facebook/facebook.network.js';
import { ThreadsNetwork } from '../threads/threads.network.js';
import { TikTokNetwork } from '../tiktok/tiktok.network.js';
import { XNetwork } from '../x/x.network.js';
import { YouTubeNetwork } from '../youtube/youtube.network.js';
import { OAuthProvider } from './oauth-provider.js';

const client = { clientId: 'c', clientSecret: 's', instanceUrl: '' };
const account = { id: 'a', platform: 'tiktok' as const, externalId: '1', username: 'u', instanceUrl: '', grant: null };

describe('OAuthProvider', () => {
  it('reads the profile with the access token as a Bearer, keeping names storable', async () => {
    const seen: Array<{ url: string; authorization: string | null }> = [];
    const http = new ProviderHttp({}, undefined, async (url, init) => {
      seen.push({ url: String(url), authorization: new Headers(init?.headers).get('authorization') });
      return new Response(JSON.stringify({ data: { id: '42', username: `a\u0000b${'c'.repeat(400)}`, name: 'G' } }), { status: 200 });
    });
    const identity = await new OAuthProvider(new XNetwork(), http).fetchIdentity(
      client,
      { accessToken: 'tok' },
      AbortSignal.timeout(1_000),
    );
    expect(seen).toEqual([{ url: 'https://api.x.com/2/users/me?user.fields=profile_image_url', authorization: 'Bearer tok' }]);
    expect(identity.username).toMatch(/^abc+$/);
    expect(identity.username).toHaveLength(256);
  });

  it('refuses operations it does not offer with a typed problem, never a pretended success', async () => {
    const provider = new OAuthProvider(new TikTokNetwork(), new ProviderHttp({}));
    const refusal = { status: 409, code: 'provider_capability_unavailable' };
    await expect(
      provider.publish(account, { marker: 'r1', parts: [{ text: 'hi', title: '', link: '', media: [] }] }),
    ).rejects.toMatchObject({
      failure: { outcome: 'rejected', kind: 'capability', code: 'provider_capability_unavailable' },
    });
    await expect(provider.fetchAccountMetrics(account)).rejects.toMatchObject(refusal);
    await expect(provider.fetchPostMetrics(account, ['p'])).rejects.toMatchObject(refusal);
    await expect(provider.fetchFollowRecommendations(account, 5)).rejects.toMatchObject(refusal);
  });

  it('renews with the refresh_token grant, keeping a refresh token the network did not rotate (Google)', async () => {
    const asked: Array<{ url: string; body: string }> = [];
    const http = new ProviderHttp({}, undefined, async (url, init) => {
      asked.push({ url: String(url), body: String(init?.body) });
      return new Response(JSON.stringify({ access_token: 'new', expires_in: 3600, scope: 'a b' }), { status: 200 });
    });
    const grant = await new OAuthProvider(new YouTubeNetwork(), http).refreshGrant(
      client,
      { accessToken: 'old', refreshToken: 'rt' },
      AbortSignal.timeout(1_000),
    );
    expect(grant).toMatchObject({ accessToken: 'new', refreshToken: 'rt', scopes: ['a', 'b'] });
    expect(asked[0].url).toBe('https://oauth2.googleapis.com/token');
    expect(Object.fromEntries(new URLSearchParams(asked[0].body))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'rt',
      client_id: 'c',
      client_secret: 's',
    });
  });

  it("renews Meta's long-lived tokens with themselves, and refuses what cannot be renewed", async () => {
    const urls: string[] = [];
    const http = new ProviderHttp({}, undefined, async (url) => {
      urls.push(String(url));
      return new Response(JSON.stringify({ access_token: 'long', expires_in: 5_184_000 }), { status: 200 });
    });
    await expect(
      new OAuthProvider(new ThreadsNetwork(), http).refreshGrant(client, { accessToken: 'tok' }, AbortSignal.timeout(1_000)),
    ).resolves.toMatchObject({ accessToken: 'long' });
    expect(urls).toEqual(['https://graph.threads.net/refresh_access_token?grant_type=th_refresh_token&access_token=tok']);
    await expect(
      new OAuthProvider(new FacebookNetwork(), http).refreshGrant(client, { accessToken: 'tok' }, AbortSignal.timeout(1_000)),
    ).rejects.toMatchObject({ failure: 'refused' });
    await expect(
      new OAuthProvider(new TikTokNetwork(), http).refreshGrant(client, { accessToken: 'tok' }, AbortSignal.timeout(1_000)),
    ).rejects.toMatchObject({ failure: 'refused' });
    expect(urls).toHaveLength(1);
  });
});
