import { describe, expect, it } from '@jest/globals';
import { ThreadsNetwork } from './threads.network.js';

const network = new ThreadsNetwork();
const client = { clientId: 'th-client', clientSecret: 'th-secret', instanceUrl: '' };

describe('Threads settings', () => {
  it('asks with comma-separated scopes at threads.net', () => {
    const url = new URL(network.authorizationUrl(client, { redirectUri: 'https://app.example/cb', state: 'st' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://threads.net/oauth/authorize');
    expect(url.searchParams.get('scope')).toBe(
      'threads_basic,threads_content_publish,threads_manage_insights,threads_manage_replies,threads_read_replies',
    );
    expect(network.tokenRequest(client, { code: 'c', redirectUri: 'r' }).url).toBe('https://graph.threads.net/oauth/access_token');
  });

  it('reads a short-lived grant without expiry or scope as the scopes asked for', () => {
    expect(network.readGrant({ access_token: 'tok', user_id: 1 }, new Date())).toEqual({
      accessToken: 'tok',
      scopes: [...network.scopes],
    });
  });

  it('reads the profile', () => {
    expect(network.profileEndpoint()).toContain('https://graph.threads.net/v1.0/me?fields=');
    expect(
      network.readProfile({ id: '1', username: 'ada', name: 'Ada', threads_profile_picture_url: 'https://cdn.example/p.jpg' }),
    ).toEqual({
      externalId: '1',
      username: 'ada',
      displayName: 'Ada',
      avatarUrl: 'https://cdn.example/p.jpg',
    });
  });
});
