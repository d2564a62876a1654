import { describe, expect, it } from '@jest/globals';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_HEAD_BYTES } from '@social/platform';
import { ByteLimit, parseRange, SniffedTypeLimit } from './media-storage.js';

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

describe('SniffedTypeLimit', () => {
  const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a0000000d49484452000000040000000408060000000000000000', 'hex');
  const MP4_HEAD = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2'),
  ]);
  const limit = SNIFF_HEAD_BYTES + 100_000;

  /** `head` then zeros in 64 KiB chunks up to `total` bytes, through the limit: how many bytes came out, and the error. */
  async function run(head: Buffer, total: number): Promise<{ passed: number; error?: unknown }> {
    const chunks = function* () {
      yield head;
      for (let sent = head.length; sent < total; sent += 64 * 1024) yield Buffer.alloc(Math.min(64 * 1024, total - sent));
    };
    let passed = 0;
    const sink = new PassThrough().on('data', (chunk: Buffer) => (passed += chunk.length));
    const error = await pipeline(Readable.from(chunks()), new SniffedTypeLimit(limit), sink).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    return { passed, error };
  }

  it('stops bytes sniffed as an image once they pass the non-video limit (413 media_too_large at body.content)', async () => {
    const { passed, error } = await run(PNG_SIGNATURE, 3 * limit);
    expect(error).toMatchObject({
      status: 413,
      code: 'media_too_large',
      options: { errors: [{ location: 'body.content', message: `must be at most ${limit} bytes for image/png` }] },
    });
    expect(passed).toBeLessThanOrEqual(limit);
  });

  it('lets a video, and anything not past the limit, through whole', async () => {
    expect(await run(MP4_HEAD, 3 * limit)).toEqual({ passed: 3 * limit, error: undefined });
    expect(await run(PNG_SIGNATURE, limit)).toEqual({ passed: limit, error: undefined });
  });
});
