import { describe, expect, it } from '@jest/globals';
import type { GatewayConfig } from '../config.js';
import { fastifyOptions, loggablePath } from './fastify-options.js';

const options = fastifyOptions({ BODY_LIMIT_BYTES: 1024, TRUSTED_PROXIES: false } as GatewayConfig);

describe('gateway routing options', () => {
  it.each([
    ['/api/v1/auth/me', '/auth/me'],
    ['/api/v1/auth/me?x=1', '/auth/me?x=1'],
    ['/api/v1', '/'],
    ['/api/v1/schemas/UserProfile.json', '/api/v1/schemas/UserProfile.json'],
    ['/auth/me', '/auth/me'],
    ['/api/v10/x', '/api/v10/x'],
  ])('serves %s as %s', (url, expected) => {
    expect(options.rewriteUrl({ url })).toBe(expected);
  });

  it('keeps a plain incoming request id and replaces anything else', () => {
    expect(options.genReqId({ headers: { 'x-request-id': 'abc-123' } })).toBe('abc-123');
    expect(options.genReqId({ headers: { 'x-request-id': 'a b\nc' } })).toMatch(/^[0-9a-f-]{36}$/);
    expect(options.genReqId({ headers: {} })).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs URLs without the credentials an OAuth callback carries in its query', () => {
    expect(loggablePath('/social-accounts/callback/x?code=abc&state=def')).toBe('/social-accounts/callback/x?code=redacted&state=redacted');
    expect(loggablePath('/social-accounts/callback/x?state=a&state=b&other=1')).toBe('/social-accounts/callback/x?state=redacted&other=1');
    expect(loggablePath('/workspaces?organization_id=a%20b')).toBe('/workspaces?organization_id=a%20b');
    expect(loggablePath('/auth/me')).toBe('/auth/me');
  });

  it("logs a media upload URL without its token (it lets anyone write the session's bytes until it expires)", () => {
    expect(loggablePath('/media/upload-session/01a2/content?token=1764000000.abcDEF_-')).toBe(
      '/media/upload-session/01a2/content?token=redacted',
    );
    expect(loggablePath('/api/v1/media/upload-session/01a2/content?x=1&token=t')).toBe(
      '/api/v1/media/upload-session/01a2/content?x=1&token=redacted',
    );
  });
});
