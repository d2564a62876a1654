import { describe, expect, it } from '@jest/globals';
import { XNetwork } from './x.network.js';

const network = new XNetwork();
const client = { clientId: 'x-client', clientSecret: 'x secret/+', instanceUrl: '' };

describe('X settings', () => {
  it('builds the authorization URL X expects: PKCE S256 and space-separated scopes with offline.access', () => {
    const url = new URL(network.authorizationUrl(client, { redirectUri: 'https://app.example/cb/x', state: 'st', codeChallenge: 'ch' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://x.com/i/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'x-client',
      redirect_uri: 'https://app.example/cb/x',
      scope: 'tweet.read tweet.write users.read media.write follows.write offline.access',
      state: 'st',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    });
  });

  it('authenticates a confidential client with HTTP Basic (form-encoded parts) and sends the verifier', () => {
    const request = network.tokenRequest(client, { code: 'c', redirectUri: 'https://app.example/cb/x', codeVerifier: 'v' });
    expect(request.url).toBe('https://api.x.com/2/oauth2/token');
    expect(request.headers).toEqual({ authorization: `Basic ${Buffer.from('x-client:x+secret%2F%2B').toString('base64')}` });
    expect(Object.fromEntries(request.form!)).toEqual({
      grant_type: 'authorization_code',
      code: 'c',
      redirect_uri: 'https://app.example/cb/x',
      code_verifier: 'v',
    });
  });

  it('lets a public client (no secret) name itself in the form', () => {
    const request = network.tokenRequest({ ...client, clientSecret: '' }, { code: 'c', redirectUri: 'r', codeVerifier: 'v' });
    expect(request.headers).toEqual({});
    expect(request.form!.get('client_id')).toBe('x-client');
    expect(network.requiresClientSecret).toBe(false);
  });

  it('reads the profile of /2/users/me', () => {
    expect(network.profileEndpoint()).toBe('https://api.x.com/2/users/me?user.fields=profile_image_url');
    const body = {
      data: { id: '2244994945', name: 'Developers', username: 'XDevelopers', profile_image_url: 'https://pbs.twimg.com/a.jpg' },
    };
    expect(network.readProfile(body)).toEqual({
      externalId: '2244994945',
      username: 'XDevelopers',
      displayName: 'Developers',
      avatarUrl: 'https://pbs.twimg.com/a.jpg',
    });
    expect(() => network.readProfile({ data: {} })).toThrow('without an account id');
  });
});
