import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { ByteLimit, parseRange } from './media-storage.js';

describe('parseRange', () => {
  it('reads one byte range; past the end is unsatisfiable; anything else means the whole object', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-1000', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=9-1', 100)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=-', 100)).toBeNull();
  });
});

describe('ByteLimit', () => {
  it('passes up to the limit and fails with 413 past it', async () => {
    const limited = new ByteLimit(5);
    const out = new PassThrough();
    limited.pipe(out);
    const failed = new Promise((resolve) => limited.on('error', resolve));
    limited.write(Buffer.from('abc'));
    limited.write(Buffer.from('de'));
    limited.write(Buffer.from('f'));
    expect(await failed).toMatchObject({ status: 413, code: 'media_too_large' });
    expect(out.read()?.toString()).toBe('abcde');
  });
});
