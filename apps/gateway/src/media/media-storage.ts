import { Transform, type TransformCallback } from 'node:stream';
import { Problem, SNIFF_HEAD_BYTES, sniffType } from '@social/platform';

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

export const sniffedTooLarge = (type: string, limit: number) =>
  new Problem(413, 'media_too_large', `A ${type} upload may be at most ${limit} bytes.`, {
    errors: [{ location: 'body.content', message: `must be at most ${limit} bytes for ${type}` }],
  });

/**
 * Holds bytes that are not a video to the non-video limit while they stream in (docs/decisions.md: the
 * sniffed type's own limit): a session declared as a video (4 GiB) whose bytes are a JPEG fails with
 * 413 once they pass 50 MiB, instead of being stored whole and refused at completion. The type is
 * sniffed from the first SNIFF_HEAD_BYTES, as completion sniffs it; bytes before that pass unjudged.
 */
export class SniffedTypeLimit extends Transform {
  private seen = 0;
  private head: Buffer[] = [];
  private headLength = 0;
  /** Undefined until the type is known. */
  private limit?: number;
  private type = '';

  constructor(private readonly nonVideoLimit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.limit === undefined) {
      const part = chunk.subarray(0, SNIFF_HEAD_BYTES - this.headLength);
      this.head.push(part);
      this.headLength += part.length;
      if (this.headLength >= SNIFF_HEAD_BYTES) {
        this.sniff().then(
          () => this.pass(chunk, callback),
          () => {
            // Bytes the sniffer cannot read are left to completion to judge.
            this.limit = Number.POSITIVE_INFINITY;
            this.pass(chunk, callback);
          },
        );
        return;
      }
    }
    this.pass(chunk, callback);
  }

  private async sniff(): Promise<void> {
    const sniffed = await sniffType(Buffer.concat(this.head));
    this.head = [];
    // Refused types (markup, executables) are refused at completion; here they are simply not videos.
    this.type = 'refused' in sniffed ? 'non-video' : sniffed.mimeType;
    this.limit = this.type.startsWith('video/') ? Number.POSITIVE_INFINITY : this.nonVideoLimit;
  }

  private pass(chunk: Buffer, callback: TransformCallback): void {
    if (this.limit !== undefined && this.seen > this.limit) callback(sniffedTooLarge(this.type, this.limit));
    else callback(null, chunk);
  }
}

/** Range parsing is shared with the media service's loopback source (libs/platform). */
export { parseRange } from '@social/platform';
