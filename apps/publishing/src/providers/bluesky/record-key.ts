import { createHash } from 'node:crypto';

/** The base32-sortable alphabet of AT Protocol TIDs. */
const S32 = '234567abcdefghijklmnopqrstuvwxyz';
const UUID_V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A TID's 10-bit clock id leaves room for this many parts of one post. */
export const MAX_THREAD_PARTS = 1024;
/** 2023-01-01, the floor of timestamps derived for markers that are not UUIDv7. */
const FALLBACK_EPOCH_MS = Date.UTC(2023, 0, 1);

/**
 * The record key of part `index` of the post whose marker is `marker`: a
 * valid TID (13 base32-sortable characters: 53 bits of microseconds, 10 bits
 * of clock id), the same on every attempt, so a second create of the same
 * part is refused by the PDS instead of duplicating it and reconciliation is
 * a getRecord. The marker is a UUIDv7 (the rendition id): its millisecond
 * timestamp gives the time, a hash of the whole marker the sub-millisecond
 * digits and the clock id (plus the part index, so parts differ). Other
 * markers get a time derived from their hash.
 */
export function recordKey(marker: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_THREAD_PARTS) throw new RangeError(`part index ${index} is outside 0..${MAX_THREAD_PARTS - 1}`);
  const hash = createHash('sha256').update(marker).digest();
  const uuid = UUID_V7.exec(marker);
  const ms = uuid ? parseInt(`${uuid[1]}${uuid[2]}`, 16) : FALLBACK_EPOCH_MS + (hash.readUIntBE(10, 6) % (3 * 365 * 86_400_000));
  const micros = BigInt(ms) * 1000n + BigInt(hash.readUInt16BE(0) % 1000);
  const clockId = (hash.readUInt16BE(2) + index) % MAX_THREAD_PARTS;
  let value = (micros << 10n) | BigInt(clockId);
  let key = '';
  for (let i = 0; i < 13; i++) {
    key = S32[Number(value & 31n)] + key;
    value >>= 5n;
  }
  return key;
}
