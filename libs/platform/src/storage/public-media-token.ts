import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type PublicMediaTokenCheck =
  | { result: 'valid'; mediaId: string; expiresAt: Date }
  /** Not a token of ours at all (wrong shape): nothing is there (404). */
  | { result: 'malformed' }
  /** Our shape, but the signature does not match (altered or forged): 403. */
  | { result: 'invalid' }
  /** Signed by us, but past its expiry: 410. */
  | { result: 'expired'; mediaId: string };

const PAYLOAD_BYTES = 16 + 8 + 8; // media id, expiry (unix seconds), a random nonce
const PAYLOAD_CHARS = Math.ceil((PAYLOAD_BYTES * 4) / 3); // 43 base64url characters
const MAC_CHARS = 43; // HMAC-SHA256 in base64url
const TOKEN = new RegExp(`^([A-Za-z0-9_-]{${PAYLOAD_CHARS}})\\.([A-Za-z0-9_-]{${MAC_CHARS}})$`);

/**
 * The token of a public copy's URL (`{base_url}/media/public/{token}`): the media id, the expiry
 * and a random nonce (so two URLs of one item differ), base64url, then an HMAC-SHA256 of them keyed
 * by a key derived from SECRETS_KEY for this purpose alone. The media service signs, the gateway
 * checks: a forged or altered token is refused without asking anyone, and nobody can guess one.
 */
export class PublicMediaTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update('media-public-url-token\0').update(secret).digest();
  }

  sign(mediaId: string, expiresAt: Date): string {
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    Buffer.from(mediaId.replace(/-/g, ''), 'hex').copy(payload, 0);
    payload.writeBigUInt64BE(BigInt(Math.floor(expiresAt.getTime() / 1000)), 16);
    randomBytes(8).copy(payload, 24);
    const encoded = payload.toString('base64url');
    return `${encoded}.${this.mac(encoded)}`;
  }

  check(token: unknown, now = Date.now()): PublicMediaTokenCheck {
    if (typeof token !== 'string') return { result: 'malformed' };
    const match = TOKEN.exec(token);
    if (!match) return { result: 'malformed' };
    const given = Buffer.from(match[2], 'utf8');
    const expected = Buffer.from(this.mac(match[1]), 'utf8');
    if (!timingSafeEqual(given, expected)) return { result: 'invalid' };
    const payload = Buffer.from(match[1], 'base64url');
    const hex = payload.subarray(0, 16).toString('hex');
    const mediaId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    const expiresAt = new Date(Number(payload.readBigUInt64BE(16)) * 1000);
    return expiresAt.getTime() <= now ? { result: 'expired', mediaId } : { result: 'valid', mediaId, expiresAt };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
