import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Problem } from '../problems/problem.js';
import { derivationSecrets } from '../crypto/secrets-keyring.js';

/** 410: the upload session is past its hour (the gateway's upload URL and the media service's completion). */
export const uploadSessionExpired = (): Problem =>
  new Problem(410, 'upload_session_expired', 'The upload session has expired (sessions last 1 hour); start a new one.');

export type UploadTokenCheck = 'valid' | 'invalid' | 'expired';

/**
 * The token of a media upload URL (`…/content?token=`): `<expires, unix seconds>.<HMAC-SHA256>`
 * over the media id and the expiry, keyed by a key derived from SECRETS_KEY.
 * The media service signs, the gateway verifies: neither a bearer token nor a
 * database read is needed to refuse a forged or tampered one.
 */
export class UploadTokens {
  /** The first key signs; every key of SECRETS_KEY's keyring verifies (an upload URL survives a rotation). */
  private readonly keys: Buffer[];

  constructor(secret: string) {
    this.keys = derivationSecrets(secret).map((one) => createHash('sha256').update('media-upload-token\0').update(one).digest());
  }

  sign(mediaId: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${expires}.${this.mac(mediaId, expires)}`;
  }

  check(mediaId: string, token: unknown, now = Date.now()): UploadTokenCheck {
    if (typeof token !== 'string' || token.length > 200) return 'invalid';
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return 'invalid';
    const expires = Number(match[1]);
    const given = Buffer.from(match[2], 'utf8');
    const matches = (key: Buffer) => {
      const expected = Buffer.from(this.mac(mediaId.toLowerCase(), expires, key), 'utf8');
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    if (!this.keys.some(matches)) return 'invalid';
    return expires * 1000 <= now ? 'expired' : 'valid';
  }

  private mac(mediaId: string, expires: number, key = this.keys[0]): string {
    return createHmac('sha256', key).update(`${mediaId}\n${expires}`).digest('base64url');
  }
}
