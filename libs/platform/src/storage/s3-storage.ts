import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { type ByteRange, type DirectUploadTarget, type MediaStorage, sliceStream, type StoredObject } from './media-storage.js';

export interface S3StorageOptions {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

/** Media in an S3-compatible bucket (path-style addressing, so MinIO-like servers work); clients upload with a presigned PUT. */
export class S3Storage implements MediaStorage {
  readonly driver = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region || 'us-east-1',
      forcePathStyle: true,
      // Plain bodies (no aws-chunked checksum trailers), which every S3-compatible server understands.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    });
  }

  async createUploadTarget(key: string, size: number, contentType: string, expiresAt: Date): Promise<DirectUploadTarget> {
    const expiresIn = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    const command = new PutObjectCommand({ Bucket: this.options.bucket, Key: key, ContentLength: size, ContentType: contentType });
    const url = await getSignedUrl(this.client, command, { expiresIn, signableHeaders: new Set(['content-type', 'content-length']) });
    return { url, headers: { 'Content-Type': contentType } };
  }

  async put(key: string, body: Readable, size?: number): Promise<{ size: number }> {
    if (size === undefined) throw new Error('S3 puts need the size');
    // A body that fails (a client gone mid-upload) aborts the request: S3 then keeps nothing.
    const abort = new AbortController();
    let failure: unknown;
    const onError = (error: unknown) => {
      failure = error;
      abort.abort(error);
    };
    body.once('error', onError);
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: body, ContentLength: size }), {
        abortSignal: abort.signal,
      });
    } catch (error) {
      throw failure ?? error;
    } finally {
      body.off('error', onError);
    }
    return { size };
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      const body = answer.Body as Readable;
      if (!range) return body;
      // A server that answers more than the range (some S3-compatible ones do for `bytes=0-0`): cut it here.
      const sent = /^bytes (\d+)-(\d+)\//.exec(answer.ContentRange ?? '');
      const first = sent ? Number(sent[1]) : 0;
      const last = sent ? Number(sent[2]) : Number.MAX_SAFE_INTEGER;
      return first === range.start && last === range.end ? body : sliceStream(body, { start: range.start - first, end: range.end - first });
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async copy(from: string, to: string): Promise<boolean> {
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.options.bucket,
          Key: to,
          CopySource: `${this.options.bucket}/${encodeURIComponent(from).replaceAll('%2F', '/')}`,
        }),
      );
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    if (!key) return;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) if (object.Key) yield { key: object.Key, size: object.Size ?? 0 };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
