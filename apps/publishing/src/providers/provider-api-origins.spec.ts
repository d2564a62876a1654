import { describe, expect, it } from '@jest/globals';
import { parseProviderApiOrigins, redirectOrigin } from './provider-api-origins.js';

describe('PROVIDER_API_ORIGINS', () => {
  it('maps networks to origins, and replaces only the origin of their URLs', () => {
    const origins = parseProviderApiOrigins('{"x": "http://127.0.0.1:8099/ignored/path", "mastodon": "https://proxy.internal"}');
    expect(origins).toEqual({ x: 'http://127.0.0.1:8099', mastodon: 'https://proxy.internal' });
    expect(redirectOrigin(origins, 'x', 'https://api.x.com/2/users/me?user.fields=a')).toBe(
      'http://127.0.0.1:8099/2/users/me?user.fields=a',
    );
    expect(redirectOrigin(origins, 'linkedin', 'https://api.linkedin.com/v2/userinfo')).toBe('https://api.linkedin.com/v2/userinfo');
    expect(parseProviderApiOrigins(undefined)).toEqual({});
    expect(parseProviderApiOrigins('')).toEqual({});
  });

  it("serves instagram from facebook's origin unless instagram has one of its own", () => {
    const graph = 'https://graph.instagram.com/me?fields=id';
    expect(redirectOrigin({ facebook: 'http://127.0.0.1:9001' }, 'instagram', graph)).toBe('http://127.0.0.1:9001/me?fields=id');
    const both = { facebook: 'http://127.0.0.1:9001', instagram: 'http://127.0.0.1:9002' };
    expect(redirectOrigin(both, 'instagram', graph)).toBe('http://127.0.0.1:9002/me?fields=id');
    expect(redirectOrigin({ instagram: 'http://127.0.0.1:9002' }, 'facebook', 'https://graph.facebook.com/me')).toBe(
      'https://graph.facebook.com/me',
    );
  });

  it.each([
    ['[]', 'must be a JSON object'],
    ['not json', 'must be a JSON object'],
    ['{"myspace": "http://a"}', 'unknown network "myspace"'],
    ['{"x": "ftp://a"}', 'PROVIDER_API_ORIGINS.x must be an http(s) origin'],
    ['{"x": 5}', 'PROVIDER_API_ORIGINS.x must be an http(s) origin'],
  ])('refuses %s at start-up', (raw, message) => {
    expect(() => parseProviderApiOrigins(raw)).toThrow(message);
  });
});
