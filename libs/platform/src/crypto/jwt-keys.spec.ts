import { describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import { JwtKeySet, jwtKeyId, jwtSigningKey } from './jwt-keys.js';

const expected = { issuer: 'social-accounts', audience: 'social-api' };

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

async function tokenSignedBy(privatePem: string, withKid = true): Promise<string> {
  const { key, kid } = await jwtSigningKey(privatePem);
  return new SignJWT({ sid: 's' })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', ...(withKid ? { kid } : {}) })
    .setSubject('u')
    .setIssuer(expected.issuer)
    .setAudience(expected.audience)
    .setIssuedAt()
    .setExpirationTime('15m')
    .sign(withKid ? key : await importPKCS8(privatePem, 'EdDSA'));
}

describe('JWT key set', () => {
  const old = keyPair();
  const next = keyPair();

  it('names each key by the thumbprint of its public key, the same from either half', async () => {
    const kid = await jwtKeyId(old.publicPem);
    expect(kid).toMatch(/^[\w-]{43}$/);
    expect((await jwtSigningKey(old.privatePem)).kid).toBe(kid);
    expect(await jwtKeyId(next.publicPem)).not.toBe(kid);
  });

  it('rotates without refusing a token: add the new key, sign with it, retire the old one', async () => {
    const before = await JwtKeySet.fromPem(old.publicPem);
    const oldToken = await tokenSignedBy(old.privatePem);
    expect((await before.verify(oldToken, expected)).sub).toBe('u');

    // 1. Verifiers get both keys (PEM blocks one after the other); 2. accounts signs with the new one.
    const both = await JwtKeySet.fromPem(`${old.publicPem}\n${next.publicPem}`);
    expect(both.kids).toHaveLength(2);
    const newToken = await tokenSignedBy(next.privatePem);
    expect((await both.verify(oldToken, expected)).sub).toBe('u');
    expect((await both.verify(newToken, expected)).sub).toBe('u');

    // 3. Once old tokens have expired, the old key goes: its tokens are refused, new ones still pass.
    const after = await JwtKeySet.fromPem(next.publicPem);
    expect((await after.verify(newToken, expected)).sub).toBe('u');
    await expect(after.verify(oldToken, expected)).rejects.toThrow('not in the key set');
  });

  it('tries every key for a token signed before kids, and refuses a wrong issuer, a forged signature or no key at all', async () => {
    const both = await JwtKeySet.fromPem(`${old.publicPem}${next.publicPem}`);
    const legacy = await tokenSignedBy(next.privatePem, false);
    expect((await both.verify(legacy, expected)).sub).toBe('u');
    await expect(both.verify(legacy, { ...expected, issuer: 'someone-else' })).rejects.toThrow();
    const stranger = keyPair();
    await expect(both.verify(await tokenSignedBy(stranger.privatePem, false), expected)).rejects.toThrow();
    await expect(JwtKeySet.fromPem('no key here')).rejects.toThrow('no PEM public key');
  });
});
