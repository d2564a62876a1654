import { createHash, randomBytes } from 'node:crypto';

/** A random bearer secret with a readable prefix; only its hash is ever stored. */
export function newOpaqueToken(prefix: string): { token: string; hash: string } {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashOpaqueToken(token) };
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
