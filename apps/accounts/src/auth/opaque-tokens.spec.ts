import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { normalizeEmail } from '../users/users.js';
import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens.js';

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

describe('opaque tokens', () => {
  it('carry a readable prefix and 32 random bytes, base64url', () => {
    const { token } = newOpaqueToken('inv');
    expect(token).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
    expect(newOpaqueToken('inv').token).not.toBe(token);
  });

  it('are stored as the SHA-256 of the whole token, prefix included', () => {
    const { token, hash } = newOpaqueToken('rt');
    expect(hash).toBe(sha256Hex(token));
    expect(hash).not.toBe(sha256Hex(token.slice('rt_'.length)));
    expect(hashOpaqueToken(token)).toBe(hash);
  });

  it('hash differently when a single character differs', () => {
    expect(hashOpaqueToken('rg_abc')).not.toBe(hashOpaqueToken('rg_abd'));
    expect(hashOpaqueToken('rg_abc')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('normalizeEmail', () => {
  it('compares addresses trimmed and case-insensitively', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(normalizeEmail('ada@example.com')).toBe(normalizeEmail('ADA@EXAMPLE.COM'));
  });

  it('keeps the rest of the address as typed', () => {
    expect(normalizeEmail('a.b+tag@example.com')).toBe('a.b+tag@example.com');
  });
});
