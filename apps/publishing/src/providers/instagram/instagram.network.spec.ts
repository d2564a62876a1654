import { describe, expect, it } from '@jest/globals';
import { InstagramNetwork } from './instagram.network.js';

const network = new InstagramNetwork();
const client = { clientId: 'ig-client', clientSecret: 'ig-secret', instanceUrl: '' };
const now = new Date('2026-01-01T00:00:00.000Z');

describe('Instagram settings', () => {
  it('asks Instagram Login for the business scopes', () => {
    const url = new URL(network.authorizationUrl(client, { redirectUri: 'https://app.example/cb', state: 'st' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://www.instagram.com/oauth/authorize');
    expect(url.searchParams.get('scope')).toBe('instagram_business_basic,instagram_business_content_publish');
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
