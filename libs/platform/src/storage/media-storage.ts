import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';

/** An inclusive byte range, as HTTP `Range: bytes=start-end` names it. */
export interface ByteRange {
  start: number;
  end: number;
}

/** One stored object, as a listing names it. */
export interface StoredObject {
  key: string;
  size: number;
}

/** Where a client sends the bytes itself (S3: a presigned PUT). */
export interface DirectUploadTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * Where media bytes live: the one interface of both adapters (NATS JetStream
 * object store, S3-compatible). Bytes are streamed in and out, never held whole
 * in memory and never written to local disk.
 */
export interface MediaStorage {
  readonly driver: 'nats' | 's3';
  /** S3 only: a presigned PUT the client uses directly; absent when uploads go through the gateway. */
  createUploadTarget?(key: string, size: number, contentType: string, expiresAt: Date): Promise<DirectUploadTarget>;
  /** Stores the stream under `key` (replacing it); rejects, leaving no object, when the stream fails. */
  put(key: string, body: Readable, size?: number): Promise<{ size: number }>;
  /** The object's bytes (or the range of them), or null when there is no such object. */
  read(key: string, range?: ByteRange): Promise<Readable | null>;
  /** The stored size, or null when there is no such object. */
  stat(key: string): Promise<{ size: number } | null>;
  /**
   * S3 only (clients write presigned keys themselves, until the URL expires): copies `from` to `to`
   * server-side, a snapshot no client can change; false when `from` does not exist.
   */
  copy?(from: string, to: string): Promise<boolean>;
  /** Removes the object; removing one that does not exist (or the empty key) is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix`, a page at a time (the sweep of orphan uploads walks them). */
  list(prefix: string): AsyncIterable<StoredObject>;
  close(): Promise<void>;
}

/** Keys of media objects: by workspace and media id. */
export const mediaObjectKey = (workspaceId: string, mediaId: string): string => `workspaces/${workspaceId}/media/${mediaId}`;

/**
 * The key of a delivery copy of an item (an image as a network that fetches by URL receives it: converted and
 * stripped of metadata), under the item's key so it goes with the item; the orphan sweep leaves it alone.
 */
export const deliveryCopyKey = (workspaceId: string, mediaId: string, copyId: string): string =>
  `${mediaObjectKey(workspaceId, mediaId)}/delivered/${copyId}`;

/**
 * A key of its own for one write of an item's bytes, under the item's key: every upload (and, with S3,
 * every completion's snapshot) writes a new object, so the bytes a ready item records never change.
 */
export const mediaUploadKey = (workspaceId: string, mediaId: string): string =>
  `${mediaObjectKey(workspaceId, mediaId)}/uploads/${randomUUID()}`;

/** Whether `key` is one of mediaUploadKey's keys of that item. */
export const isMediaUploadKey = (key: string, workspaceId: string, mediaId: string): boolean =>
  new RegExp(`^${mediaObjectKey(workspaceId, mediaId)}/uploads/[0-9a-f-]{36}$`).test(key);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UPLOAD_KEY = new RegExp(`^workspaces/[^/]+/media/(${UUID})/uploads/${UUID}$`);

/** The media id of one of mediaUploadKey's keys, or null for any other key. */
export const uploadKeyMediaId = (key: string): string | null => UPLOAD_KEY.exec(key)?.[1] ?? null;

/** Passes at most `range` of a stream on (the object store cannot seek: it skips to the start). */
export function sliceStream(source: Readable, range: ByteRange): Readable {
  let position = 0;
  const out = new Readable({
    read() {
      source.resume();
    },
    destroy(error, callback) {
      source.destroy();
      callback(error);
    },
  });
  source.on('data', (chunk: Buffer) => {
    const from = Math.max(0, range.start - position);
    const to = Math.min(chunk.length, range.end + 1 - position);
    position += chunk.length;
    if (to > from && !out.push(chunk.subarray(from, to))) source.pause();
    if (position > range.end) {
      out.push(null);
      source.destroy();
    }
  });
  source.on('end', () => out.push(null));
  source.on('error', (error) => out.destroy(error));
  return out;
}

/** One `Range: bytes=…` range of an object of `size` bytes: a range, 'unsatisfiable' (416), or null (answer the whole object). */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
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
