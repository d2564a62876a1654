import { describe, expect, it } from '@jest/globals';
import { LinkedInNetwork } from './linkedin.network.js';

const network = new LinkedInNetwork();
const client = { clientId: 'li-client', clientSecret: 'li-secret', instanceUrl: '' };

describe('LinkedIn settings', () => {
  it('asks for OpenID Connect and member posting, without PKCE', () => {
    const url = new URL(network.authorizationUrl(client, { redirectUri: 'https://app.example/cb', state: 'st' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://www.linkedin.com/oauth/v2/authorization');
    expect(url.searchParams.get('scope')).toBe('openid profile w_member_social');
    expect(url.searchParams.get('client_id')).toBe('li-client');
    expect(url.searchParams.has('code_challenge')).toBe(false);
    expect(network.pkce).toBe(false);
  });

  it('with linkedin_organization_pages on, also asks to post as and read the pages the member administers', () => {
    expect(network.extensionSetting).toBe('linkedin_organization_pages');
    const request = { redirectUri: 'https://app.example/cb', state: 'st' };
    const scope = (extension: boolean) => new URL(network.authorizationUrl(client, request, { extension })).searchParams.get('scope');
    expect(scope(true)).toBe('openid profile w_member_social w_organization_social r_organization_admin r_organization_social');
    expect(scope(false)).toBe('openid profile w_member_social');
  });

  it('posts the client secret in the form', () => {
    const request = network.tokenRequest(client, { code: 'c', redirectUri: 'https://app.example/cb' });
    expect(request.url).toBe('https://www.linkedin.com/oauth/v2/accessToken');
    expect(Object.fromEntries(request.form!)).toEqual({
      grant_type: 'authorization_code',
      code: 'c',
      redirect_uri: 'https://app.example/cb',
      client_id: 'li-client',
      client_secret: 'li-secret',
    });
  });

  it('reads userinfo: the member name stands in for the handle LinkedIn does not give', () => {
    expect(network.profileEndpoint()).toBe('https://api.linkedin.com/v2/userinfo');
    expect(network.readProfile({ sub: 'abc123', name: 'Ada Lovelace', picture: 'https://media.licdn.com/p.jpg' })).toEqual({
      externalId: 'abc123',
      username: 'Ada Lovelace',
      displayName: 'Ada Lovelace',
      avatarUrl: 'https://media.licdn.com/p.jpg',
    });
    expect(network.readProfile({ sub: 'abc123', given_name: 'Ada', family_name: 'L.' }).displayName).toBe('Ada L.');
  });
});
