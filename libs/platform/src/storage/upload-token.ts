import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Problem } from '../problems/problem.js';

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
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update('media-upload-token\0').update(secret).digest();
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
    const expected = Buffer.from(this.mac(mediaId.toLowerCase(), expires), 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return expires * 1000 <= now ? 'expired' : 'valid';
  }

  private mac(mediaId: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${mediaId}\n${expires}`).digest('base64url');
  }
}
