import { describe, expect, it } from '@jest/globals';
import { ExpiringCache } from './expiring-cache.js';

describe('ExpiringCache', () => {
  it('forgets entries at their expiry', () => {
    const cache = new ExpiringCache<number>(10);
    cache.set('a', 1, 1_000);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1_000)).toBeUndefined();
  });

  it('evicts the oldest entry when full', () => {
    const cache = new ExpiringCache<number>(2);
    cache.set('a', 1, Infinity);
    cache.set('b', 2, Infinity);
    cache.set('c', 3, Infinity);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    expect(cache.get('c')).toBe(3);
  });
});
