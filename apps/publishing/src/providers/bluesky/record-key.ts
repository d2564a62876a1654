import { createHash } from 'node:crypto';

/** The base32-sortable alphabet of AT Protocol TIDs. */
const S32 = '234567abcdefghijklmnopqrstuvwxyz';
const UUID_V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7([0-9a-f]{3})-([0-9a-f]{4})-([0-9a-f]{12})$/i;
/** The part index is folded into a TID's microseconds within the marker's millisecond. */
export const MAX_THREAD_PARTS = 1000;
/** 2023-01-01, the floor of timestamps derived for markers that are not UUIDv7. */
const FALLBACK_EPOCH_MS = Date.UTC(2023, 0, 1);

/**
 * The 20 low bits of a UUIDv7's counter (RFC 9562 method 1, as the `uuid`
 * package writes it across rand_a and rand_b: it starts at random each
 * millisecond and counts up), so ids made by one process in one millisecond
 * differ here.
 */
function counterBits(uuid: RegExpExecArray): number {
  const bits = BigInt(`0x${uuid[3]}${uuid[4]}${uuid[5]}`); // 12 + 16 + 48 bits after the version nibble
  // rand_a (12) | variant (2) | rand_b (62): the counter's 20 low bits open rand_b.
  const randB = bits & ((1n << 62n) - 1n);
  return Number(randB >> 42n);
}

/**
 * The record key of part `index` of the post whose marker is `marker`: a
 * valid TID (13 base32-sortable characters: 53 bits of microseconds, 10 bits
 * of clock id), the same on every attempt, so a second create of the same
 * part is refused by the PDS instead of duplicating it and reconciliation is
 * a getRecord. Record keys are per account (repository), so they must differ
 * between the renditions of one account. The marker is a UUIDv7 (the
 * rendition id): its millisecond is the TID's; its counter's low 10 bits are
 * the clock id (ids of one replica in one millisecond count up, so up to 1,024 of
 * them never share it) and the next 10 bits shift the part index within the
 * millisecond's microseconds (parts of one post never share them). Renditions
 * of one account made in the same millisecond by two replicas share a key
 * about once in a million; the adapter checks a found record's text before it
 * takes it as its own. Other markers get a time and bits from their hash.
 */
export function recordKey(marker: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_THREAD_PARTS)
    throw new RangeError(`part index ${index} is outside 0..${MAX_THREAD_PARTS - 1}`);
  const uuid = UUID_V7.exec(marker);
  let ms: number;
  let counter: number;
  if (uuid) {
    ms = parseInt(`${uuid[1]}${uuid[2]}`, 16);
    counter = counterBits(uuid);
  } else {
    const hash = createHash('sha256').update(marker).digest();
    ms = FALLBACK_EPOCH_MS + (hash.readUIntBE(10, 6) % (3 * 365 * 86_400_000));
    counter = hash.readUIntBE(0, 3) & 0xfffff;
  }
  const clockId = counter & 0x3ff;
  const micros = BigInt(ms) * 1000n + BigInt(((counter >> 10) + index) % MAX_THREAD_PARTS);
  let value = (micros << 10n) | BigInt(clockId);
  let key = '';
  for (let i = 0; i < 13; i++) {
    key = S32[Number(value & 31n)] + key;
    value >>= 5n;
  }
  return key;
}
