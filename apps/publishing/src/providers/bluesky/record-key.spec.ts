import { describe, expect, it } from '@jest/globals';
import { v7 as uuidv7 } from 'uuid';
import { recordKey } from './record-key.js';

const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const decode = (key: string) =>
  [...key].reduce((value, char) => (value << 5n) | BigInt('234567abcdefghijklmnopqrstuvwxyz'.indexOf(char)), 0n);

describe('recordKey', () => {
  it('derives a valid TID carrying the UUIDv7 time, the same on every call', () => {
    const created = Date.UTC(2026, 10, 24, 12, 0, 0, 123);
    const marker = uuidv7({ msecs: created });
    const key = recordKey(marker, 0);
    expect(key).toMatch(TID);
    expect(recordKey(marker, 0)).toBe(key);
    expect(Number((decode(key) >> 10n) / 1000n)).toBe(created);
  });

  it('gives every part of a post and every post its own key', () => {
    const marker = uuidv7();
    const keys = new Set(Array.from({ length: 50 }, (_, index) => recordKey(marker, index)));
    expect(keys.size).toBe(50);
    // Ids one process makes in a burst (many in one millisecond) never share a key, whatever their parts.
    const burst = Array.from({ length: 2_000 }, () => uuidv7());
    const burstKeys = new Set(burst.flatMap((marker) => [0, 1, 2].map((index) => recordKey(marker, index))));
    expect(burstKeys.size).toBe(burst.length * 3);
    // Consecutive counter values of one millisecond (how one replica numbers a burst) differ in every part's key.
    const msecs = Date.UTC(2026, 5, 1);
    const counted = Array.from({ length: 1_024 }, (_, i) => uuidv7({ msecs, seq: 0x12345 + i, random: new Uint8Array(16) }));
    const countedKeys = new Set(counted.flatMap((marker) => [0, 1, 2, 3].map((index) => recordKey(marker, index))));
    expect(countedKeys.size).toBe(counted.length * 4);
    // Ids of other milliseconds never do either.
    const spread = new Set(Array.from({ length: 500 }, (_, i) => recordKey(uuidv7({ msecs: Date.UTC(2026, 0, 1) + i }), 0)));
    expect(spread.size).toBe(500);
  });

  it('accepts markers that are not UUIDv7 and refuses impossible part indexes', () => {
    expect(recordKey('not-a-uuid', 3)).toMatch(TID);
    expect(() => recordKey(uuidv7(), 1000)).toThrow(RangeError);
    expect(() => recordKey(uuidv7(), -1)).toThrow(RangeError);
  });
});
