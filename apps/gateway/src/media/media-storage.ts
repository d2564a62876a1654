import { Transform, type TransformCallback } from 'node:stream';
import { Problem } from '@social/platform';

/** The gateway's media storage adapter (the media service's instance settings choose it; see main.ts). */
export const GATEWAY_MEDIA_STORAGE = Symbol('GATEWAY_MEDIA_STORAGE');

/** The route whose body is streamed raw into storage (no JSON parsing, no 1 MiB limit). */
export const UPLOAD_CONTENT_ROUTE = '/media/upload-session/:id/content';
/** The private content type the raw upload body is parsed as (see configureFastify). */
export const RAW_UPLOAD_CONTENT_TYPE = 'application/x-social-media-upload';

export const uploadTooLarge = (size: number) =>
  new Problem(413, 'media_too_large', `The upload is longer than the ${size} bytes the session declared.`, {
    errors: [{ location: 'body.content', message: `must be at most ${size} bytes, as declared` }],
  });

/** Passes bytes on until more than `limit` have come, then fails with 413 (the partial object is then deleted). */
export class ByteLimit extends Transform {
  private seen = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) callback(uploadTooLarge(this.limit));
    else callback(null, chunk);
  }
}

/** One `Range: bytes=…` range of an object of `size` bytes: a range, 'unsatisfiable' (416), or null (answer the whole object). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null; // several ranges or another unit: the whole object (RFC 9110 allows it)
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return null; // invalid: ignored
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
