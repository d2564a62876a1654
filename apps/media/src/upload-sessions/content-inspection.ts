import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { SNIFF_HEAD_BYTES as HEAD_BYTES, sniffType } from '@social/platform';
import { imageSize } from 'image-size';

/** Sniffing is shared with the gateway, which applies the sniffed type's size limit while bytes stream in. */
export { sniffType, type Sniffed } from '@social/platform';

/** The largest `moov` box we read for a duration (its sample tables grow with the length of the video). */
const MOOV_MAX_BYTES = 32 * 1024 * 1024;

export interface ContentFacts {
  size: number;
  sha256: string;
  /** The type sniffed from the bytes; `application/octet-stream` when unknown. */
  mimeType: string;
  width: number;
  height: number;
  durationMs: number;
}

/**
 * Reads a stored object once, streamed: its SHA-256, its size, the first
 * 512 KiB for sniffing and, for MP4/QuickTime, the `moov` box wherever it sits
 * (top-level boxes are walked as they pass, nothing else is kept).
 */
export async function inspectContent(stream: Readable): Promise<ContentFacts & { refused?: string }> {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headLength = 0;
  const boxes = new TopLevelBoxes('moov', MOOV_MAX_BYTES);
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (headLength < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - headLength);
      head.push(part);
      headLength += part.length;
    }
    boxes.feed(chunk, size);
    size += chunk.length;
  }
  const headBuffer = Buffer.concat(head);
  const sniffed = await sniffType(headBuffer);
  const facts: ContentFacts & { refused?: string } = {
    size,
    sha256: hash.digest('hex'),
    mimeType: 'refused' in sniffed ? '' : sniffed.mimeType,
    width: 0,
    height: 0,
    durationMs: 0,
  };
  if ('refused' in sniffed) return { ...facts, refused: sniffed.refused };
  if (containsMarkup(headBuffer)) return { ...facts, refused: 'markup (HTML, XHTML, XML or SVG) in its first 64 KiB is not accepted' };
  if (facts.mimeType.startsWith('image/')) {
    try {
      const dimensions = imageSize(headBuffer);
      facts.width = knownDimension(dimensions.width);
      facts.height = knownDimension(dimensions.height);
    } catch {
      // Dimensions past the first 512 KiB, or a format image-size does not read: unknown (0).
    }
  }
  const moov = boxes.captured();
  if (moov) facts.durationMs = mvhdDurationMs(moov);
  return facts;
}

/** How far into a file markup is looked for (docs/decisions.md: the first 64 KiB). */
export const MARKUP_SCAN_BYTES = 64 * 1024;
/**
 * Markup a browser could render or run, anywhere in the first 64 KiB, whatever the file claims to be
 * (a polyglot: a valid image with an HTML page inside). XML declarations, doctypes and HTML/SVG
 * elements count; an image's XMP metadata packet (`<?xpacket`, `<x:xmpmeta`, `<rdf:…`) does not.
 */
export function containsMarkup(head: Buffer): boolean {
  const text = head.subarray(0, MARKUP_SCAN_BYTES).toString('latin1').toLowerCase();
  return MARKUP_PATTERN.test(text);
}
/** The alternatives of MARKUP_PATTERN: an XML declaration, a doctype, an HTML or SVG element, an XHTML or SVG namespace. */
const MARKUP_ALTERNATIVES = [
  /<\?xml[\s?]/,
  /<!doctype[\s>]/,
  /<(?:html|head|body|svg|script|iframe|object|embed|foreignobject|xhtml:[a-z]+|svg:[a-z]+)[\s>/]/,
  /xmlns(?::[a-z]+)?\s*=\s*["']http:\/\/www\.w3\.org\/(?:1999\/xhtml|2000\/svg)/,
];
const MARKUP_PATTERN = new RegExp(MARKUP_ALTERNATIVES.map((alternative) => alternative.source).join('|'));

/**
 * Walks ISO-BMFF top-level boxes (`size`, `type`, optional 64-bit size) as
 * chunks pass and keeps one box type's content, if it is not too large.
 */
export class TopLevelBoxes {
  private next = 0;
  private header = Buffer.alloc(0);
  private headerAt = 0;
  private capture: { start: number; end: number; parts: Buffer[] } | null = null;
  private done: Buffer | null = null;
  private broken = false;

  constructor(
    private readonly wanted: string,
    private readonly maxBytes: number,
  ) {}

  feed(chunk: Buffer, offset: number): void {
    if (this.broken || this.done) return;
    let at = 0;
    while (at < chunk.length && !this.broken && !this.done) {
      const position = offset + at;
      if (this.capture) {
        const take = Math.min(chunk.length - at, this.capture.end - position);
        this.capture.parts.push(chunk.subarray(at, at + take));
        at += take;
        if (offset + at >= this.capture.end) {
          this.done = Buffer.concat(this.capture.parts);
          this.capture = null;
        }
        continue;
      }
      if (position < this.next) {
        at += Math.min(chunk.length - at, this.next - position);
        continue;
      }
      // Collect a box header (8 bytes, 16 with a 64-bit size) that may straddle chunks.
      if (this.header.length === 0) this.headerAt = position;
      const need = 16 - this.header.length;
      this.header = Buffer.concat([this.header, chunk.subarray(at, at + need)]);
      at += Math.min(need, chunk.length - at);
      if (this.header.length < 8) continue;
      const size32 = this.header.readUInt32BE(0);
      const type = this.header.subarray(4, 8).toString('latin1');
      if (!/^[\x20-\x7e]{4}$/.test(type)) {
        this.broken = true;
        return;
      }
      let headerLength = 8;
      let boxSize = size32;
      if (size32 === 1) {
        if (this.header.length < 16) continue;
        boxSize = Number(this.header.readBigUInt64BE(8));
        headerLength = 16;
      } else if (size32 === 0) {
        this.broken = true; // "to the end of the file": never the moov we look for in practice
        return;
      }
      if (boxSize < headerLength) {
        this.broken = true;
        return;
      }
      const contentStart = this.headerAt + headerLength;
      const end = this.headerAt + boxSize;
      // Bytes of the header buffer past the header proper belong to the content: step back to them.
      at -= this.header.length - headerLength;
      this.header = Buffer.alloc(0);
      this.next = end;
      if (type === this.wanted && boxSize - headerLength <= this.maxBytes) {
        this.capture = { start: contentStart, end, parts: [] };
        if (contentStart === end) {
          this.done = Buffer.alloc(0);
          this.capture = null;
        }
      }
    }
  }

  captured(): Buffer | null {
    return this.done;
  }
}

/** Dimensions a header claims outside 1..2^31−1 pixels (a crafted 0xFFFFFFFF) are unknown: 0. */
export const MAX_DIMENSION = 2 ** 31 - 1;
export const knownDimension = (value: number | undefined): number =>
  value !== undefined && Number.isInteger(value) && value >= 1 && value <= MAX_DIMENSION ? value : 0;

/** Durations a header claims past 2^31−1 ms (about 24.8 days; a crafted 2^64−1) are unknown: 0. */
export const MAX_DURATION_MS = 2 ** 31 - 1;
const knownDurationMs = (value: number): number => (Number.isFinite(value) && value >= 0 && value <= MAX_DURATION_MS ? value : 0);

/** The movie's duration from the `mvhd` box inside a `moov` box's content; 0 when it says none, or an unbelievable one. */
export function mvhdDurationMs(moov: Buffer): number {
  let at = 0;
  while (at + 8 <= moov.length) {
    const size = moov.readUInt32BE(at);
    const type = moov.subarray(at + 4, at + 8).toString('latin1');
    if (size < 8) return 0;
    if (type === 'mvhd') {
      const version = moov[at + 8];
      if (version === 1) {
        if (at + 40 > moov.length) return 0;
        const timescale = moov.readUInt32BE(at + 28);
        const duration = Number(moov.readBigUInt64BE(at + 32));
        return timescale > 0 ? knownDurationMs(Math.round((duration * 1000) / timescale)) : 0;
      }
      if (at + 32 > moov.length) return 0;
      const timescale = moov.readUInt32BE(at + 20);
      const duration = moov.readUInt32BE(at + 24);
      return timescale > 0 && duration !== 0xffffffff ? knownDurationMs(Math.round((duration * 1000) / timescale)) : 0;
    }
    at += size;
  }
  return 0;
}
