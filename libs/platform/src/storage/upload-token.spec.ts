import { describe, expect, it } from '@jest/globals';
import { UploadTokens } from './upload-token.js';

describe('UploadTokens', () => {
  const tokens = new UploadTokens('a'.repeat(44));
  const id = '01a21009-cc66-736c-9249-c615fee8096b';
  const later = new Date(Date.now() + 60_000);

  it('accepts its own token for the same media id until it expires', () => {
    const token = tokens.sign(id, later);
    expect(tokens.check(id, token)).toBe('valid');
    expect(tokens.check(id.toUpperCase(), token)).toBe('valid');
    expect(tokens.check(id, token, later.getTime() + 1000)).toBe('expired');
  });

  it('refuses a missing, malformed, altered, foreign or differently keyed token', () => {
    const token = tokens.sign(id, later);
    const [expires, mac] = token.split('.');
    expect(tokens.check(id, undefined)).toBe('invalid');
    expect(tokens.check(id, ['a'])).toBe('invalid');
    expect(tokens.check(id, '')).toBe('invalid');
    expect(tokens.check(id, `${Number(expires) + 1}.${mac}`)).toBe('invalid');
    expect(tokens.check(id, `${expires}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`)).toBe('invalid');
    expect(tokens.check('01a21009-cc66-736c-9249-c615fee8096c', token)).toBe('invalid');
    expect(new UploadTokens('b'.repeat(44)).check(id, token)).toBe('invalid');
  });
});
