import { createPublicKey } from 'node:crypto';
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  exportJWK,
  importPKCS8,
  importSPKI,
  jwtVerify,
  type CryptoKey,
  type JWTPayload,
} from 'jose';

/**
 * The access-token keys, in one place for whoever signs (accounts) and whoever verifies (the gateway, and services
 * that check a caller's token). Each key is named by its `kid`: the RFC 7638 thumbprint of its public key, so a
 * key id never needs configuring and cannot disagree with the key.
 *
 * Rotation without signing anyone out (access tokens live 15 minutes; refresh tokens are not JWTs):
 *   1. add the new public key to JWT_PUBLIC_KEY (several PEM blocks, one after the other) everywhere that verifies;
 *   2. give accounts the new JWT_PRIVATE_KEY: new tokens carry the new kid, old ones still verify;
 *   3. after the access-token lifetime, remove the old public key.
 */
export const JWT_ALGORITHM = 'EdDSA';

const PEM_PUBLIC_KEY = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;

export class JwtKeyError extends Error {}

/** The kid of a public key (PEM): its JWK thumbprint (SHA-256, base64url). */
export async function jwtKeyId(publicKeyPem: string): Promise<string> {
  return calculateJwkThumbprint(await exportJWK(createPublicKey(publicKeyPem)));
}

/** The signing key of accounts and its kid (derived from the public half). */
export async function jwtSigningKey(privateKeyPem: string): Promise<{ kid: string; key: CryptoKey }> {
  const publicPem = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
  return { kid: await jwtKeyId(publicPem), key: await importPKCS8(privateKeyPem, JWT_ALGORITHM) };
}

/** The public keys a verifier accepts, by kid (JWT_PUBLIC_KEY: one or more PEM public keys). */
export class JwtKeySet {
  private constructor(private readonly keys: Map<string, CryptoKey>) {}

  static async fromPem(pems: string): Promise<JwtKeySet> {
    const blocks = pems.match(PEM_PUBLIC_KEY) ?? [];
    if (blocks.length === 0) throw new JwtKeyError('no PEM public key found');
    const keys = new Map<string, CryptoKey>();
    for (const block of blocks) keys.set(await jwtKeyId(block), await importSPKI(block, JWT_ALGORITHM));
    return new JwtKeySet(keys);
  }

  get kids(): string[] {
    return [...this.keys.keys()];
  }

  /**
   * Verifies signature, issuer, audience and expiry against the key the token names. A token without a kid
   * (signed before kids existed) is tried against each key. Throws when nothing verifies it.
   */
  async verify(token: string, expected: { issuer: string; audience: string }): Promise<JWTPayload> {
    const { kid } = decodeProtectedHeader(token);
    const candidates = kid === undefined ? [...this.keys.values()] : [this.keys.get(kid)].filter((key): key is CryptoKey => !!key);
    if (candidates.length === 0) throw new JwtKeyError('the token names a key that is not in the key set');
    let failure: unknown;
    for (const key of candidates) {
      try {
        const { payload } = await jwtVerify(token, key, { ...expected, algorithms: [JWT_ALGORITHM] });
        return payload;
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }
}
