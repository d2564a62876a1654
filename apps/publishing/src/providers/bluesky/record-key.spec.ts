import { describe, expect, it } from '@jest/globals';
import { v7 as uuidv7 } from 'uuid';
import { recordKey } from './record-key.js';

const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const decode = (key: string) => [...key].reduce((value, char) => (value << 5n) | BigInt('234567abcdefghijklmnopqrstuvwxyz'.indexOf(char)), 0n);

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
    const others = new Set(Array.from({ length: 500 }, () => recordKey(uuidv7(), 0)));
    expect(others.size).toBe(500);
  });

  it('accepts markers that are not UUIDv7 and refuses impossible part indexes', () => {
    expect(recordKey('not-a-uuid', 3)).toMatch(TID);
    expect(() => recordKey(uuidv7(), 1024)).toThrow(RangeError);
    expect(() => recordKey(uuidv7(), -1)).toThrow(RangeError);
  });
});
