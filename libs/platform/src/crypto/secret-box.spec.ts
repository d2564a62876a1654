import { describe, expect, it } from '@jest/globals';
import { createCipheriv, randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError } from './secret-box.js';

const newKey = () => randomBytes(32).toString('base64');

/** An envelope as sealed before keyrings: `v1.<nonce>.<ciphertext>.<tag>`, AAD `v1:<context>`. */
function legacySeal(base64Key: string, plaintext: string, context = ''): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(base64Key, 'base64'), nonce);
  cipher.setAAD(Buffer.from(`v1:${context}`, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', nonce, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

describe('SecretBox (AES-256-GCM)', () => {
  const box = SecretBox.fromBase64Key(newKey());

  it('round-trips, with a fresh nonce every time and the key id in the envelope', () => {
    const a = box.seal('s3cret ünïcode 😀', 'ctx');
    const b = box.seal('s3cret ünïcode 😀', 'ctx');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v2\.k0\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    expect(a).not.toContain('s3cret');
    expect(box.open(a, 'ctx')).toBe('s3cret ünïcode 😀');
    expect(box.open(box.seal(''), '')).toBe('');
  });

  it('refuses a tampered envelope', () => {
    const sealed = box.seal('hello world');
    const [version, id, nonce, ciphertext, tag] = sealed.split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([version, id, nonce, flipped.toString('base64url'), tag].join('.'))).toThrow(SecretBoxError);
    const badTag = Buffer.from(tag, 'base64url');
    badTag[15] ^= 0x80;
    expect(() => box.open([version, id, nonce, ciphertext, badTag.toString('base64url')].join('.'))).toThrow(SecretBoxError);
    expect(() => box.open(`v3.${id}.${nonce}.${ciphertext}.${tag}`)).toThrow(SecretBoxError);
    expect(() => box.open('plain text')).toThrow(SecretBoxError);
  });

  it('refuses another key or another context', () => {
    const sealed = box.seal('hello', 'instance_settings:smtp_url');
    expect(() => SecretBox.fromBase64Key(newKey()).open(sealed, 'instance_settings:smtp_url')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'instance_settings:ai_api_key')).toThrow(SecretBoxError);
  });

  it('accepts only 32-byte base64 keys, with unique ids in a keyring', () => {
    expect(() => SecretBox.fromBase64Key(randomBytes(16).toString('base64'))).toThrow(SecretBoxError);
    expect(() => SecretBox.fromBase64Key('not base64 at all!')).toThrow(SecretBoxError);
    expect(() => SecretBox.fromBase64Key(`a:${newKey()},${newKey()}`)).toThrow('needs an id');
    expect(() => SecretBox.fromBase64Key(`a:${newKey()},a:${newKey()}`)).toThrow('unique');
    expect(() => SecretBox.fromBase64Key(`a.b:${newKey()}`)).toThrow('letters, digits');
  });

  it('rotates: the first key of the ring seals, every key opens, envelopes of older keys (and before keyrings) need a re-seal', () => {
    const oldKey = newKey();
    const newer = newKey();
    const before = SecretBox.fromBase64Key(oldKey);
    const legacy = legacySeal(oldKey, 'from the v1 days', 'provider_apps:x:client_secret');
    const sealedByOld = before.seal('sealed by k0', 'ctx');
    expect(before.open(legacy, 'provider_apps:x:client_secret')).toBe('from the v1 days');

    // Step 1: the new key is added second (every replica can read it); step 2: it becomes first.
    const added = SecretBox.fromBase64Key(`k0:${oldKey},k1:${newer}`);
    expect(added.seal('x')).toMatch(/^v2\.k0\./);
    const rotated = SecretBox.fromBase64Key(`k1:${newer},k0:${oldKey}`);
    const sealedByNew = rotated.seal('sealed by k1', 'ctx');
    expect(sealedByNew).toMatch(/^v2\.k1\./);
    expect(added.open(sealedByNew, 'ctx')).toBe('sealed by k1');
    expect(rotated.open(sealedByOld, 'ctx')).toBe('sealed by k0');
    expect(rotated.open(legacy, 'provider_apps:x:client_secret')).toBe('from the v1 days');
    expect([legacy, sealedByOld, sealedByNew].map((envelope) => rotated.needsReseal(envelope))).toEqual([true, true, false]);

    // Step 3, after the re-seal: the old key is dropped; what it sealed no longer opens, and says why.
    const retired = SecretBox.fromBase64Key(`k1:${newer}`);
    expect(retired.open(rotated.seal(rotated.open(sealedByOld, 'ctx'), 'ctx'), 'ctx')).toBe('sealed by k0');
    expect(() => retired.open(sealedByOld, 'ctx')).toThrow('no longer holds');
  });
});
