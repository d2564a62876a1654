import { createHash, createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../crypto/canonical-json.js';
import { problems } from '../problems/problem.js';
import { isUuid } from '../validation/validate.js';
import { derivationSecrets } from '../crypto/secrets-keyring.js';

const MAC_BYTES = 16;

/**
 * Opaque list cursors (docs/decisions.md): `<position>.<mac>`, the position being the
 * last item's sort key and the MAC an HMAC over it and the list's filters. A
 * cursor therefore works only with the filters it was issued for, and any edit
 * is detected; both are 422, never a wrong page.
 */
export class CursorCodec {
  /**
   * The first key signs; every key verifies (SECRETS_KEY's keyring, so a rotation keeps cursors working). Key objects
   * made once: an HMAC given raw bytes builds one per call (a few % of a list's CPU).
   */
  private readonly keys: KeyObject[];

  private constructor(keys: Buffer[]) {
    this.keys = keys.map((key) => createSecretKey(key));
  }

  /** One key per list, derived from a service secret (e.g. SECRETS_KEY): the same on every replica. */
  static derive(secret: string, purpose: string): CursorCodec {
    return new CursorCodec(derivationSecrets(secret).map((one) => createHash('sha256').update(`cursor:${purpose}\0`).update(one).digest()));
  }

  encode(position: object, filters: object): string {
    const payload = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
    return `${payload}.${this.mac(payload, filters)}`;
  }

  /** The position the cursor holds, or 422 at `location` when it is malformed, edited, or was issued for other filters. */
  decode<T>(cursor: string, filters: object, isPosition: (value: unknown) => value is T, location = 'query.cursor'): T {
    const refused = () => problems.invalid(location, 'is not a cursor of this list with these filters (start again without one)');
    const parts = cursor.split('.');
    if (parts.length !== 2 || !parts[0]) throw refused();
    const [payload, mac] = parts;
    // Compared as text: base64url decoding forgives stray characters, an edited cursor must not pass.
    const given = Buffer.from(mac, 'utf8');
    const matches = (key: KeyObject) => {
      const expected = Buffer.from(this.mac(payload, filters, key), 'utf8');
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    if (!this.keys.some(matches)) throw refused();
    let position: unknown;
    try {
      position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw refused();
    }
    if (!isPosition(position)) throw refused();
    return position;
  }

  private mac(payload: string, filters: object, key = this.keys[0]): string {
    return createHmac('sha256', key)
      .update(`${payload}\n${canonicalJson(filters)}`)
      .digest()
      .subarray(0, MAC_BYTES)
      .toString('base64url');
  }
}

/** Where a newest-first page ends: the last item's creation time and id (the tie-breaker), as lists encode it in their cursors. */
export interface CreatedAtPosition {
  at: string;
  id: string;
}

/** Validates a decoded CreatedAtPosition (a cursor of another list never passes). */
export const isCreatedAtPosition = (value: unknown): value is CreatedAtPosition =>
  !!value &&
  typeof (value as CreatedAtPosition).at === 'string' &&
  !Number.isNaN(Date.parse((value as CreatedAtPosition).at)) &&
  isUuid((value as CreatedAtPosition).id);

/** The position after `item` in a newest-first list. */
export const createdAtPosition = (item: { createdAt: Date; id: string }): CreatedAtPosition => ({
  at: item.createdAt.toISOString(),
  id: item.id,
});
