import { describe, expect, it } from '@jest/globals';
import { PublicMediaTokens } from './public-media-token.js';

describe('PublicMediaTokens', () => {
  const tokens = new PublicMediaTokens('a'.repeat(44));
  const id = '01a21009-cc66-736c-9249-c615fee8096b';
  const later = new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000);

  it('gives back the media id and expiry of its own token until it expires; each token is different', () => {
    const token = tokens.sign(id, later);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(tokens.check(token)).toEqual({ result: 'valid', mediaId: id, expiresAt: later });
    expect(tokens.check(token, later.getTime() + 1000)).toEqual({ result: 'expired', mediaId: id });
    expect(tokens.sign(id, later)).not.toBe(token);
  });

  it('refuses an altered, forged or differently keyed token (invalid) and anything not shaped like one (malformed)', () => {
    const token = tokens.sign(id, later);
    const [payload, mac] = token.split('.');
    const flip = (text: string, at: number) => `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    expect(tokens.check(`${flip(payload, 3)}.${mac}`)).toEqual({ result: 'invalid' });
    // Moving the expiry (bytes 16-23 of the payload) breaks the signature too.
    expect(tokens.check(`${flip(payload, 25)}.${mac}`)).toEqual({ result: 'invalid' });
    expect(tokens.check(`${payload}.${flip(mac, 10)}`)).toEqual({ result: 'invalid' });
    expect(new PublicMediaTokens('b'.repeat(44)).check(token)).toEqual({ result: 'invalid' });
    for (const bad of [undefined, 42, '', 'x', `${payload}.${mac}.x`, `${payload}${mac}`, `${payload}.${mac.slice(1)}`]) {
      expect(tokens.check(bad)).toEqual({ result: 'malformed' });
    }
  });
});
