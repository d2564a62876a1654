import { describe, expect, it } from '@jest/globals';
import { YouTubeNetwork } from './youtube.network.js';

const network = new YouTubeNetwork();
const client = { clientId: 'yt-client', clientSecret: 'yt-secret', instanceUrl: '' };

describe('YouTube settings', () => {
  it('asks Google for offline access with consent, PKCE and the YouTube scopes', () => {
    const url = new URL(network.authorizationUrl(client, { redirectUri: 'https://app.example/cb', state: 'st', codeChallenge: 'ch' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      scope: 'https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.upload',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    });
    expect(network.tokenRequest(client, { code: 'c', redirectUri: 'r', codeVerifier: 'v' }).url).toBe(
      'https://oauth2.googleapis.com/token',
    );
  });

  it("reads the signed-in account's channel, its custom URL as the handle", () => {
    expect(network.profileEndpoint()).toBe('https://www.googleapis.com/youtube/v3/channels?part=snippet&mine=true');
    const body = {
      items: [
        {
          id: 'UC123',
          snippet: {
            title: 'Ada Builds',
            customUrl: '@adabuilds',
            thumbnails: { default: { url: 'https://yt3.example/d.jpg' }, high: { url: 'https://yt3.example/h.jpg' } },
          },
        },
      ],
    };
    expect(network.readProfile(body)).toEqual({
      externalId: 'UC123',
      username: '@adabuilds',
      displayName: 'Ada Builds',
      avatarUrl: 'https://yt3.example/h.jpg',
    });
  });

  it('says so when the Google account has no channel', () => {
    expect(() => network.readProfile({ kind: 'youtube#channelListResponse', items: [] })).toThrow(
      expect.objectContaining({ failure: 'no_account' }),
    );
  });
});
