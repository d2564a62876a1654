import { describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { inspectContent, knownDimension, mvhdDurationMs, sniffType, TopLevelBoxes } from './content-inspection.js';
import { contentTypeFor, isVideo } from './media-types.js';

const box = (type: string, content: Buffer, large = false) => {
  if (large) {
    const header = Buffer.alloc(16);
    header.writeUInt32BE(1, 0);
    header.write(type, 4, 'latin1');
    header.writeBigUInt64BE(BigInt(16 + content.length), 8);
    return Buffer.concat([header, content]);
  }
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + content.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, content]);
};

const mvhd = (version: 0 | 1, timescale: number, duration: number | bigint) => {
  const content = Buffer.alloc(version === 1 ? 108 : 96);
  content[0] = version;
  if (version === 1) {
    content.writeUInt32BE(timescale, 20);
    content.writeBigUInt64BE(BigInt(duration), 24);
  } else {
    content.writeUInt32BE(timescale, 12);
    content.writeUInt32BE(Number(duration), 16);
  }
  return box('mvhd', content);
};

const ftyp = box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2mp41', 'latin1'));

/** Streams `bytes` in chunks of `size`, to cross every boundary. */
const inChunks = (bytes: Buffer, size: number) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
    })(),
  );

describe('mvhd durations', () => {
  it('reads version 0 and version 1 headers; unknown durations are 0', () => {
    expect(mvhdDurationMs(Buffer.concat([box('trak', Buffer.alloc(20)), mvhd(0, 600, 6000)]))).toBe(10_000);
    expect(mvhdDurationMs(mvhd(1, 90_000, 90_000 * 3600))).toBe(3_600_000);
    expect(mvhdDurationMs(mvhd(0, 1000, 0xffffffff))).toBe(0);
    expect(mvhdDurationMs(mvhd(0, 0, 5))).toBe(0);
    expect(mvhdDurationMs(box('trak', Buffer.alloc(4)))).toBe(0);
    expect(mvhdDurationMs(Buffer.alloc(3))).toBe(0);
  });

  it('a duration past 2^31−1 ms (a crafted 2^64−1, or 30 days) is unknown: 0', () => {
    expect(mvhdDurationMs(mvhd(1, 1000, 2n ** 64n - 1n))).toBe(0);
    expect(mvhdDurationMs(mvhd(1, 1, 2n ** 63n))).toBe(0);
    expect(mvhdDurationMs(mvhd(1, 1000, 30 * 24 * 3600 * 1000))).toBe(0);
    expect(mvhdDurationMs(mvhd(1, 1000, 2 ** 31 - 1))).toBe(2 ** 31 - 1);
    expect(mvhdDurationMs(mvhd(0, 1, 0xfffffffe))).toBe(0);
  });
});

describe('TopLevelBoxes', () => {
  it('finds moov after a large mdat, whatever the chunking, with 32- and 64-bit box sizes', async () => {
    for (const large of [false, true]) {
      const file = Buffer.concat([
        ftyp,
        box('mdat', randomBytes(10_000), large),
        box('moov', mvhd(0, 1000, 4321)),
        box('free', Buffer.alloc(10)),
      ]);
      for (const size of [1, 3, 7, 8, 16, 1000, file.length]) {
        const facts = await inspectContent(inChunks(file, size));
        expect({ size, large, duration: facts.durationMs, type: facts.mimeType }).toEqual({
          size,
          large,
          duration: 4321,
          type: 'video/mp4',
        });
      }
    }
  });

  it('gives up on anything that is not a box structure, and on a moov larger than its limit', () => {
    const walker = new TopLevelBoxes('moov', 10);
    walker.feed(Buffer.from('not boxes at all, just text'), 0);
    expect(walker.captured()).toBeNull();
    const small = new TopLevelBoxes('moov', 10);
    small.feed(box('moov', mvhd(0, 1, 1)), 0);
    expect(small.captured()).toBeNull();
  });
});

describe('image dimensions', () => {
  it('only 1..2^31−1 pixels are believed; anything else is unknown (0)', () => {
    expect([1, 640, 2 ** 31 - 1].map(knownDimension)).toEqual([1, 640, 2 ** 31 - 1]);
    expect([0, -1, 2 ** 31, 0xffffffff, 1.5, undefined].map(knownDimension)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe('inspectContent', () => {
  it('hashes and measures the whole stream, and reads image dimensions', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from([0, 0, 0, 13]),
      Buffer.from('IHDR'),
      Buffer.from([0, 0, 2, 128, 0, 0, 1, 224, 8, 6, 0, 0, 0]),
      Buffer.alloc(4),
      Buffer.from([0, 0, 0, 4]),
      Buffer.from('IDAT'),
      randomBytes(4),
      Buffer.alloc(4),
      Buffer.from([0, 0, 0, 0]),
      Buffer.from('IEND'),
      Buffer.alloc(4),
      randomBytes(700_000),
    ]);
    const facts = await inspectContent(inChunks(png, 65_536));
    expect(facts).toEqual({
      size: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
      mimeType: 'image/png',
      width: 640,
      height: 480,
      durationMs: 0,
    });
  });
});

describe('sniffType', () => {
  it('refuses SVG, HTML, scripts and executables; unknown bytes are octet-stream', async () => {
    const refused = async (text: string | Buffer) => 'refused' in (await sniffType(Buffer.isBuffer(text) ? text : Buffer.from(text)));
    expect(await refused('<svg xmlns="http://www.w3.org/2000/svg"/>')).toBe(true);
    expect(await refused('\uFEFF  <?xml version="1.0"?><!-- x --><svg></svg>')).toBe(true);
    expect(await refused('<!doctype html><p>hi')).toBe(true);
    expect(await refused('<HTML><body>')).toBe(true);
    expect(await refused('#!/usr/bin/env node\n')).toBe(true);
    expect(await refused(Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]))).toBe(true);
    expect(await sniffType(Buffer.from('plain words'))).toEqual({ mimeType: 'application/octet-stream' });
    expect(await sniffType(Buffer.from('%PDF-1.7\n'))).toEqual({ mimeType: 'application/pdf' });
  });
});

describe('media types', () => {
  it('videos get the larger limit by declared type, else by extension', () => {
    expect(isVideo('video/mp4', 'a.png')).toBe(true);
    expect(isVideo('image/png', 'a.mp4')).toBe(false);
    expect(isVideo('', 'Holiday.MOV')).toBe(true);
    expect(isVideo('', 'a.png')).toBe(false);
    expect(contentTypeFor('', 'a.JPG')).toBe('image/jpeg');
    expect(contentTypeFor('image/webp', 'a.jpg')).toBe('image/webp');
    expect(contentTypeFor('', 'archive')).toBe('application/octet-stream');
  });
});
