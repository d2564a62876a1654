import { describe, expect, it } from '@jest/globals';
import { normalizeInstanceUrl, parseProviderApps } from './environment-apps.js';

describe('PROVIDER_APPS', () => {
  it('stores a mastodon instance as its origin', () => {
    expect(normalizeInstanceUrl('https://Social.Example/path/')).toBe('https://social.example');
  });

  // (Node 20's URL parser also refused `https://xn--a.example.com`; Node 22+ takes it, so it proves nothing here.)
  it.each(['https://a\uFFFDb.example.com'])('refuses %s at start-up, naming the entry', (url) => {
    const raw = JSON.stringify([
      { provider: 'tiktok', client_id: 'ok' },
      { provider: 'mastodon', client_id: 'bad', instance_url: url },
    ]);
    expect(() => parseProviderApps(raw)).toThrow('PROVIDER_APPS[1].instance_url is not a valid https URL');
  });
});
