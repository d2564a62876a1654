import { describe, expect, it } from '@jest/globals';
import { MastodonNetwork } from './mastodon.network.js';

const network = new MastodonNetwork();
const client = { clientId: 'm-client', clientSecret: 'm-secret', instanceUrl: 'https://social.example' };

describe('Mastodon settings', () => {
  it("takes every endpoint from the app's server", () => {
    expect(network.hasInstances).toBe(true);
    expect(network.authorizeEndpoint(client)).toBe('https://social.example/oauth/authorize');
    expect(network.tokenEndpoint(client)).toBe('https://social.example/oauth/token');
    expect(network.profileEndpoint(client)).toBe('https://social.example/api/v1/accounts/verify_credentials');
  });

  it('asks for granular scopes with a PKCE challenge', () => {
    const url = new URL(network.authorizationUrl(client, { redirectUri: 'https://app.example/cb', state: 'st', codeChallenge: 'ch' }));
    expect(url.searchParams.get('scope')).toBe('read:accounts read:statuses read:follows write:statuses write:media write:follows');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const form = network.tokenRequest(client, { code: 'c', redirectUri: 'r', codeVerifier: 'v' }).form!;
    expect(form.get('client_secret')).toBe('m-secret');
    expect(form.get('code_verifier')).toBe('v');
  });

  it('names the account with its server: ids are only unique per server', () => {
    const body = { id: '109', username: 'ada', acct: 'ada', display_name: '', avatar: 'https://files.social.example/a.png' };
    expect(network.readProfile(body, client)).toEqual({
      externalId: '109@social.example',
      username: 'ada@social.example',
      displayName: 'ada',
      avatarUrl: 'https://files.social.example/a.png',
    });
  });
});
