import { describe, expect, it } from '@jest/globals';
import { ProviderHttp } from '../provider-http.js';
import { DiscordNetwork } from '../discord/discord.network.js';
import { OAuthProvider } from './oauth-provider.js';

const client = { clientId: 'c', clientSecret: 's', instanceUrl: '' };
const account = { id: 'a', platform: 'discord' as const, externalId: '1', username: 'u', instanceUrl: '', grant: null };

describe('OAuthProvider', () => {
  it('reads the profile with the access token as a Bearer, keeping names storable', async () => {
    const seen: Array<{ url: string; authorization: string | null }> = [];
    const http = new ProviderHttp({}, undefined, async (url, init) => {
      seen.push({ url: String(url), authorization: new Headers(init?.headers).get('authorization') });
      return new Response(JSON.stringify({ id: '42', username: `a\u0000b${'c'.repeat(400)}`, global_name: 'G' }), { status: 200 });
    });
    const identity = await new OAuthProvider(new DiscordNetwork(), http).fetchIdentity(client, { accessToken: 'tok' }, AbortSignal.timeout(1_000));
    expect(seen).toEqual([{ url: 'https://discord.com/api/users/@me', authorization: 'Bearer tok' }]);
    expect(identity.username).toMatch(/^abc+$/);
    expect(identity.username).toHaveLength(256);
  });

  it('refuses operations it does not offer with a typed problem, never a pretended success', async () => {
    const provider = new OAuthProvider(new DiscordNetwork(), new ProviderHttp({}));
    const refusal = { status: 409, code: 'provider_capability_unavailable' };
    await expect(provider.publish(account, { marker: 'r1', parts: [{ text: 'hi', title: '', link: '', media: [] }] })).rejects.toMatchObject({
      failure: { outcome: 'rejected', kind: 'capability', code: 'provider_capability_unavailable' },
    });
    await expect(provider.fetchAccountMetrics(account)).rejects.toMatchObject(refusal);
    await expect(provider.fetchPostMetrics(account, ['p'])).rejects.toMatchObject(refusal);
    await expect(provider.fetchFollowRecommendations(account, 5)).rejects.toMatchObject(refusal);
  });
});
