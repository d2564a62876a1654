import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ChunkedReader } from './chunked-reader.js';
import { outgoingMedia } from './outgoing-post.fixtures.js';

/** A video whose storage hands out 1,000-byte pieces (not aligned with the chunks) and records each read. */
function storedVideo(bytes: Buffer) {
  const reads: Array<{ start: number; end: number }> = [];
  const media = {
    ...outgoingMedia(bytes, 'video/mp4', ''),
    open: async (range?: { start: number; end: number }) => {
      const { start, end } = range ?? { start: 0, end: bytes.length - 1 };
      reads.push({ start, end });
      const pieces: Buffer[] = [];
      for (let at = start; at <= end; at += 1_000) pieces.push(bytes.subarray(at, Math.min(at + 1_000, end + 1)));
      return Readable.from(pieces);
    },
  };
  return { media, reads };
}

async function bytesOf(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

describe('ChunkedReader', () => {
  it('passes on consecutive chunks from one storage read, splitting pieces at the chunk boundaries', async () => {
    const bytes = randomBytes(10_500);
    const { media, reads } = storedVideo(bytes);
    const reader = new ChunkedReader(media);
    expect(await bytesOf(await reader.take(0, 4_096))).toEqual(bytes.subarray(0, 4_096));
    expect(await bytesOf(await reader.take(4_096, 4_096))).toEqual(bytes.subarray(4_096, 8_192));
    expect(await bytesOf(await reader.take(8_192, 2_308))).toEqual(bytes.subarray(8_192));
    expect(reads).toEqual([{ start: 0, end: 10_499 }]);
  });

  it('reopens storage where asked when that is not where the last chunk ended (the server kept less), and after close', async () => {
    const bytes = randomBytes(10_000);
    const { media, reads } = storedVideo(bytes);
    const reader = new ChunkedReader(media);
    await bytesOf(await reader.take(0, 4_000));
    expect(await bytesOf(await reader.take(3_000, 2_000))).toEqual(bytes.subarray(3_000, 5_000));
    reader.close();
    expect(await bytesOf(await reader.take(5_000, 1_000))).toEqual(bytes.subarray(5_000, 6_000));
    expect(reads).toEqual([
      { start: 0, end: 9_999 },
      { start: 3_000, end: 9_999 },
      { start: 5_000, end: 9_999 },
    ]);
  });

  it('fails a chunk that storage ends before', async () => {
    const bytes = randomBytes(3_000);
    const media = { ...outgoingMedia(bytes, 'video/mp4', ''), size: 5_000 };
    const reader = new ChunkedReader(media);
    await expect(bytesOf(await reader.take(0, 5_000))).rejects.toThrow(/storage ended 2000 bytes before the chunk's end/);
  });
});
