import { describe, expect, it } from '@jest/globals';
import { InstagramNetwork } from './instagram.network.js';

const network = new InstagramNetwork();
const client = { clientId: 'ig-client', clientSecret: 'ig-secret', instanceUrl: '' };
const now = new Date('2026-01-01T00:00:00.000Z');

describe('Instagram settings', () => {
  it('asks Instagram Login for the business scopes', () => {
    const url = new URL(network.authorizationUrl(client, { redirectUri: 'https://app.example/cb', state: 'st' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://www.instagram.com/oauth/authorize');
    expect(url.searchParams.get('scope')).toBe(
      'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights,instagram_business_manage_comments',
    );
    expect(network.tokenRequest(client, { code: 'c', redirectUri: 'r' }).url).toBe('https://api.instagram.com/oauth/access_token');
  });

  it('reads the grant wrapped in data[0], with permissions as its scopes', () => {
    const body = {
      data: [{ access_token: 'tok', user_id: '17841', permissions: 'instagram_business_basic,instagram_business_content_publish' }],
    };
    expect(network.readGrant(body, now)).toEqual({
      accessToken: 'tok',
      scopes: ['instagram_business_basic', 'instagram_business_content_publish'],
    });
    expect(network.readGrant({ access_token: 'flat', user_id: 1 }, now).accessToken).toBe('flat');
    expect(() => network.readGrant({ data: [{ error: 'x' }] }, now)).toThrow();
  });

  it('trades the short-lived token for a long-lived one with the app secret, and renews it with itself (pinned version elsewhere)', () => {
    const exchange = new URL(network.longLivedTokenRequest(client, { accessToken: 'short' }).url);
    expect(`${exchange.origin}${exchange.pathname}`).toBe('https://graph.instagram.com/access_token');
    expect(Object.fromEntries(exchange.searchParams)).toEqual({
      grant_type: 'ig_exchange_token',
      client_secret: 'ig-secret',
      access_token: 'short',
    });
    const refresh = new URL(network.refreshRequest(client, { accessToken: 'long' })!.url);
    expect(Object.fromEntries(refresh.searchParams)).toEqual({ grant_type: 'ig_refresh_token', access_token: 'long' });
    const renewed = network.readRefreshedGrant(
      { access_token: 'new', token_type: 'bearer', expires_in: 5_184_000 },
      { accessToken: 'long', scopes: ['a'] },
      now,
    );
    expect(renewed).toEqual({ accessToken: 'new', expiresAt: '2026-03-02T00:00:00.000Z', scopes: ['a'] });
    expect(network.profileEndpoint()).toMatch(/^https:\/\/graph\.instagram\.com\/v27\.0\/me\?fields=/);
  });

  it("reads the professional account's Instagram id", () => {
    const body = { id: 'app-scoped', user_id: '17841', username: 'ada.ig', name: '', profile_picture_url: 'https://cdn.example/p.jpg' };
    expect(network.readProfile(body)).toEqual({
      externalId: '17841',
      username: 'ada.ig',
      displayName: 'ada.ig',
      avatarUrl: 'https://cdn.example/p.jpg',
    });
  });
});

describe('Instagram settings with instagram_facebook_login', () => {
  const request = { redirectUri: 'https://app.example/cb', state: 'st' };

  it("is the extension setting: on, Facebook's dialog (pinned version) with Instagram API with Facebook Login's permissions", () => {
    expect(network.extensionSetting).toBe('instagram_facebook_login');
    const url = new URL(network.authorizationUrl(client, request, { extension: true }));
    expect(`${url.origin}${url.pathname}`).toBe('https://www.facebook.com/v27.0/dialog/oauth');
    expect(url.searchParams.get('scope')).toBe(
      'instagram_basic,instagram_content_publish,instagram_manage_comments,instagram_manage_insights,pages_show_list,pages_read_engagement',
    );
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ client_id: 'ig-client', redirect_uri: request.redirectUri, state: 'st' });
    const off = new URL(network.authorizationUrl(client, request, { extension: false }));
    expect(`${off.origin}${off.pathname}`).toBe('https://www.instagram.com/oauth/authorize');
  });

  it('trades the code and the user token at graph.facebook.com, and never renews a Page token', () => {
    const login = network.facebookLogin;
    expect(login.platform).toBe('instagram');
    expect(login.tokenRequest(client, { code: 'c', redirectUri: 'r' }).url).toBe('https://graph.facebook.com/v27.0/oauth/access_token');
    const exchange = new URL(login.longLivedTokenRequest(client, { accessToken: 'short' }).url);
    expect(exchange.searchParams.get('grant_type')).toBe('fb_exchange_token');
    const pages = new URL(login.pagesRequest('user-token').url);
    expect(`${pages.origin}${pages.pathname}`).toBe('https://graph.facebook.com/v27.0/me/accounts');
    expect(pages.searchParams.get('fields')).toBe('instagram_business_account{id,username,name,profile_picture_url},access_token');
    expect(network.refreshRequest(client, { accessToken: 'page', graphHost: 'facebook' })).toBeUndefined();
  });

  it("reads a Page's linked professional account as the identity holding the Page's token; a Page without one is none", () => {
    const page = {
      id: 'page-1',
      access_token: 'page-token',
      instagram_business_account: { id: '17841', username: 'ada.ig', name: 'Ada', profile_picture_url: 'https://cdn.example/p.jpg' },
    };
    expect(network.facebookLogin.readPage(page)).toEqual({
      externalId: '17841',
      username: 'ada.ig',
      displayName: 'Ada',
      avatarUrl: 'https://cdn.example/p.jpg',
      grant: { accessToken: 'page-token', graphHost: 'facebook' },
    });
    expect(network.facebookLogin.readPage({ id: 'page-2', access_token: 'other' })).toBeUndefined();
  });
});
