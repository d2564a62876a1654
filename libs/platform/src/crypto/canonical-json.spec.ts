import { describe, expect, it } from '@jest/globals';
import { canonicalJson, fingerprintOf } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('serializes what JSON.stringify would: strings escaped, undefined members left out, Dates as their JSON', () => {
    expect(canonicalJson({ s: 'a"\n😀', u: undefined, n: 1.5, t: true })).toBe(JSON.stringify({ n: 1.5, s: 'a"\n😀', t: true }));
    expect(canonicalJson([undefined, new Date('2026-01-01T00:00:00Z')])).toBe('[null,"2026-01-01T00:00:00.000Z"]');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('gives equal fingerprints to equal values, whatever their key order, and different ones otherwise', () => {
    expect(fingerprintOf({ a: 1, b: [1, 2] })).toBe(fingerprintOf({ b: [1, 2], a: 1 }));
    expect(fingerprintOf({ a: 1, b: [1, 2] })).not.toBe(fingerprintOf({ a: 1, b: [2, 1] }));
    expect(fingerprintOf({ a: '1' })).not.toBe(fingerprintOf({ a: 1 }));
    expect(fingerprintOf({})).toMatch(/^[0-9a-f]{64}$/);
  });
});
