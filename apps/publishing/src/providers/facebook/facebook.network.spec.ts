import { describe, expect, it } from '@jest/globals';
import { FACEBOOK_GRAPH_VERSION, FacebookNetwork } from './facebook.network.js';

const network = new FacebookNetwork();
const client = { clientId: 'fb-client', clientSecret: 'fb-secret', instanceUrl: '' };

describe('Facebook settings', () => {
  it('uses the versioned dialog and Graph endpoints with comma-separated Page scopes', () => {
    const url = new URL(network.authorizationUrl(client, { redirectUri: 'https://app.example/cb', state: 'st' }));
    expect(`${url.origin}${url.pathname}`).toBe(`https://www.facebook.com/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`);
    expect(url.searchParams.get('scope')).toBe(
      'public_profile,pages_show_list,pages_read_engagement,pages_manage_posts,publish_video,read_insights',
    );
    expect(network.tokenRequest(client, { code: 'c', redirectUri: 'r' }).url).toBe(
      `https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}/oauth/access_token`,
    );
  });

  it('trades the user token for a long-lived one with the app secret, and reads a Page with its own token', () => {
    const exchange = new URL(network.longLivedTokenRequest(client, { accessToken: 'short' }).url);
    expect(`${exchange.origin}${exchange.pathname}`).toBe(`https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}/oauth/access_token`);
    expect(Object.fromEntries(exchange.searchParams)).toEqual({
      grant_type: 'fb_exchange_token',
      client_id: 'fb-client',
      client_secret: 'fb-secret',
      fb_exchange_token: 'short',
    });
    const page = { id: '123', name: 'Engines', access_token: 'page-tok', picture: { data: { url: 'https://scontent.example/p.jpg' } } };
    expect(network.readPage(page)).toEqual({
      externalId: '123',
      username: '123',
      displayName: 'Engines',
      avatarUrl: 'https://scontent.example/p.jpg',
      grant: { accessToken: 'page-tok' },
    });
    expect(network.readPage({ ...page, username: 'engines' })?.username).toBe('engines');
    expect(network.readPage({ id: '123', name: 'No token' })).toBeUndefined();
  });

  it('reads /me with its nested picture; the name is the handle', () => {
    expect(network.profileEndpoint()).toBe(`https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}/me?fields=id,name,picture.type(large)`);
    const body = { id: '10', name: 'Ada Lovelace', picture: { data: { url: 'https://scontent.example/p.jpg', is_silhouette: false } } };
    expect(network.readProfile(body)).toEqual({
      externalId: '10',
      username: 'Ada Lovelace',
      displayName: 'Ada Lovelace',
      avatarUrl: 'https://scontent.example/p.jpg',
    });
  });
});
