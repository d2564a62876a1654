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

/** Range parsing is shared with the media service's loopback source (libs/platform). */
export { parseRange } from '@social/platform';
