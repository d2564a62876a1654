import { describe, expect, it } from '@jest/globals';
import { TikTokNetwork } from './tiktok.network.js';

const network = new TikTokNetwork();
const client = { clientId: 'tt-key', clientSecret: 'tt-secret', instanceUrl: '' };
const now = new Date('2026-01-01T00:00:00.000Z');

describe('TikTok settings', () => {
  it('names the client client_key, in the URL and the token form', () => {
    const url = new URL(network.authorizationUrl(client, { redirectUri: 'https://app.example/cb', state: 'st' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://www.tiktok.com/v2/auth/authorize/');
    expect(url.searchParams.get('client_key')).toBe('tt-key');
    expect(url.searchParams.has('client_id')).toBe(false);
    expect(url.searchParams.get('scope')).toBe('user.info.basic,user.info.profile,user.info.stats,video.publish,video.list');
    const request = network.tokenRequest(client, { code: 'c', redirectUri: 'r' });
    expect(request.url).toBe('https://open.tiktokapis.com/v2/oauth/token/');
    expect(request.form!.get('client_key')).toBe('tt-key');
    expect(request.form!.get('client_secret')).toBe('tt-secret');
  });

  it('reads its grant (comma-separated scope), and a 200 carrying an error as a refusal', () => {
    const grant = network.readGrant(
      { access_token: 'a', refresh_token: 'r', expires_in: 86400, scope: 'user.info.basic,video.publish', open_id: 'o' },
      now,
    );
    expect(grant).toEqual({
      accessToken: 'a',
      refreshToken: 'r',
      expiresAt: '2026-01-02T00:00:00.000Z',
      scopes: ['user.info.basic', 'video.publish'],
    });
    expect(() => network.readGrant({ error: 'invalid_grant', error_description: 'Authorization code is expired.' }, now)).toThrow(
      expect.objectContaining({ failure: 'refused', networkCode: 'invalid_grant' }),
    );
  });

  it('reads data.user of /v2/user/info/', () => {
    const body = {
      data: { user: { open_id: 'o-1', username: 'ada', display_name: 'Ada', avatar_url: 'https://p16.tiktokcdn.example/a.jpg' } },
      error: { code: 'ok' },
    };
    expect(network.readProfile(body)).toEqual({
      externalId: 'o-1',
      username: 'ada',
      displayName: 'Ada',
      avatarUrl: 'https://p16.tiktokcdn.example/a.jpg',
    });
  });
});
