import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError } from './secret-box.js';

const newKey = () => randomBytes(32).toString('base64');

describe('SecretBox (AES-256-GCM)', () => {
  const box = SecretBox.fromBase64Key(newKey());

  it('round-trips, with a fresh nonce every time', () => {
    const a = box.seal('s3cret ünïcode 😀', 'ctx');
    const b = box.seal('s3cret ünïcode 😀', 'ctx');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    expect(a).not.toContain('s3cret');
    expect(box.open(a, 'ctx')).toBe('s3cret ünïcode 😀');
    expect(box.open(box.seal(''), '')).toBe('');
  });

  it('refuses a tampered envelope', () => {
    const sealed = box.seal('hello world');
    const [version, nonce, ciphertext, tag] = sealed.split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([version, nonce, flipped.toString('base64url'), tag].join('.'))).toThrow(SecretBoxError);
    const badTag = Buffer.from(tag, 'base64url');
    badTag[15] ^= 0x80;
    expect(() => box.open([version, nonce, ciphertext, badTag.toString('base64url')].join('.'))).toThrow(SecretBoxError);
    expect(() => box.open(`v2.${nonce}.${ciphertext}.${tag}`)).toThrow(SecretBoxError);
    expect(() => box.open('plain text')).toThrow(SecretBoxError);
  });

  it('refuses another key or another context', () => {
    const sealed = box.seal('hello', 'instance_settings:smtp_url');
    expect(() => SecretBox.fromBase64Key(newKey()).open(sealed, 'instance_settings:smtp_url')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'instance_settings:ai_api_key')).toThrow(SecretBoxError);
  });

  it('accepts only a 32-byte base64 key', () => {
    expect(() => SecretBox.fromBase64Key(randomBytes(16).toString('base64'))).toThrow(SecretBoxError);
    expect(() => SecretBox.fromBase64Key('not base64 at all!')).toThrow(SecretBoxError);
  });
});
