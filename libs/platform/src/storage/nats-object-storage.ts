import { type DirectStreamAPI, jetstreamManager } from '@nats-io/jetstream';
import { type ObjectInfo, Objm, StorageType, type ObjectStore } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import { Readable } from 'node:stream';
import type { ByteRange, MediaStorage, StoredObject } from './media-storage.js';
import { jetStreamReplicas } from '../events/jetstream-replicas.js';
import { Problem } from '../problems/problem.js';

/** The default bucket of media objects. */
export const MEDIA_OBJECT_BUCKET = 'media';

/** The media bucket is at its max_bytes: 507, so a full store is told apart from an outage (503) and from a too-large file (413). */
export const storageFull = (): Problem =>
  new Problem(507, 'storage_full', 'Media storage is full; delete media or ask an administrator to make room, then upload again.');

/** JetStream's refusals of a publish into a stream at its limits (discard new). */
const FULL_STREAM = /maximum bytes exceeded|insufficient (storage )?resources|storage resources exceeded/i;

export interface NatsObjectStorageOptions {
  /** The bucket's max_bytes (set on creation, and on an existing bucket that differs); none when absent. */
  maxBytes?: number;
}

/**
 * Media in the NATS JetStream object store: one bucket (file storage), objects
 * named by their key. A put publishes 128 KiB chunks and writes the object's
 * entry only at the end, so a failed or abandoned upload leaves no object (its
 * chunks are purged).
 */
export class NatsObjectStorage implements MediaStorage {
  readonly driver = 'nats' as const;
  private store?: Promise<ObjectStore>;
  private direct?: Promise<DirectStreamAPI>;

  constructor(
    private readonly nats: NatsConnection,
    private readonly bucket = MEDIA_OBJECT_BUCKET,
    private readonly options: NatsObjectStorageOptions = {},
  ) {}

  private open(): Promise<ObjectStore> {
    this.store ??= this.create().catch((error: unknown) => {
      this.store = undefined;
      throw error;
    });
    return this.store;
  }

  private async create(): Promise<ObjectStore> {
    const maxBytes = this.options.maxBytes;
    const store = await new Objm(this.nats).create(this.bucket, {
      storage: StorageType.File,
      replicas: jetStreamReplicas(),
      ...(maxBytes === undefined ? {} : { max_bytes: maxBytes }),
    });
    if (maxBytes !== undefined) {
      // A bucket made before the limit (or with another one) gets it now: creating an existing bucket changes nothing.
      const jsm = await jetstreamManager(this.nats);
      const stream = `OBJ_${this.bucket}`;
      const { config } = await jsm.streams.info(stream);
      if (config.max_bytes !== maxBytes) await jsm.streams.update(stream, { ...config, max_bytes: maxBytes });
    }
    return store;
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const store = await this.open();
    try {
      const info = await store.put({ name: key }, Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>, { timeout: 30_000 });
      return { size: info.size };
    } catch (error) {
      // The library purges the chunks it wrote; what is left to say is why.
      if (FULL_STREAM.test(String((error as Error)?.message)) || FULL_STREAM.test(String((error as { cause?: Error })?.cause?.message)))
        throw storageFull();
      throw error;
    }
  }

  /**
   * Pull-driven: one chunk is fetched (JetStream direct get) each time the reader asks for more, so a
   * slow or paused reader holds at most a chunk or two, whatever the object's size (the library's
   * get() pushes every chunk into memory as fast as the server sends them).
   */
  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    const store = await this.open();
    const info = await store.info(key);
    if (!info || info.deleted) return null;
    this.direct ??= jetstreamManager(this.nats).then((jsm) => jsm.direct);
    return ObjectChunkReader.open(await this.direct, `OBJ_${this.bucket}`, info, range);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const store = await this.open();
    const info = await store.info(key);
    return info && !info.deleted ? { size: info.size } : null;
  }

  async delete(key: string): Promise<void> {
    if (!key) return;
    const store = await this.open();
    const info = await store.info(key);
    if (info && !info.deleted) await store.delete(key);
  }

  /** The bucket's entries are read in one pass (one message per object, no bytes), then filtered. */
  async *list(prefix: string): AsyncIterable<StoredObject> {
    const store = await this.open();
    for (const info of await store.list()) {
      if (!info.deleted && info.name.startsWith(prefix)) yield { key: info.name, size: info.size };
    }
  }

  async close(): Promise<void> {
    // The connection belongs to the caller.
  }
}

/**
 * Reads an object's chunks (`$O.<bucket>.C.<nuid>`, every chunk max_chunk_size bytes but the last) in
 * order, one direct get per chunk, when the stream asks for more (backpressure). A range starts at its
 * chunk when the object's chunks sit next to each other in the stream (one put at a time, the usual
 * case: then chunk k is at the first chunk's sequence + k); otherwise the chunks before it are read
 * and skipped.
 */
class ObjectChunkReader extends Readable {
  private position: number;

  private constructor(
    private readonly direct: DirectStreamAPI,
    private readonly stream: string,
    private readonly subject: string,
    private nextSeq: number,
    startChunk: number,
    private readonly chunkSize: number,
    private readonly range: ByteRange,
  ) {
    super({ highWaterMark: chunkSize }); // one chunk ahead of the reader at most
    this.position = startChunk * chunkSize;
  }

  static async open(direct: DirectStreamAPI, stream: string, info: ObjectInfo, range?: ByteRange): Promise<Readable> {
    const wanted = range ?? { start: 0, end: info.size - 1 };
    if (info.size === 0 || wanted.end < wanted.start) return Readable.from([]);
    const subject = `$O.${info.bucket}.C.${info.nuid}`;
    const chunkSize = info.options?.max_chunk_size || 128 * 1024;
    const first = await direct.getMessage(stream, { seq: 1, next_by_subj: subject });
    if (!first) throw new Error(`object ${info.name} has no chunks`);
    let startChunk = 0;
    const skip = Math.floor(wanted.start / chunkSize);
    if (skip > 0) {
      const last = await direct.getMessage(stream, { last_by_subj: subject });
      if (last && last.seq - first.seq + 1 === info.chunks) startChunk = skip;
    }
    return new ObjectChunkReader(direct, stream, subject, first.seq + startChunk, startChunk, chunkSize, wanted);
  }

  // Node calls _read again only after a push: one fetch at a time.
  override _read(): void {
    this.fetch().catch((error: unknown) => this.destroy(error as Error));
  }

  private async fetch(): Promise<void> {
    // Chunks wholly before the range (when it could not be skipped to) are read on here, not pushed.
    for (;;) {
      const message = await this.direct.getMessage(this.stream, { seq: this.nextSeq, next_by_subj: this.subject });
      if (this.destroyed) return;
      if (!message) throw new Error('the object ended before its size (its chunks are gone)');
      this.nextSeq = message.seq + 1;
      const data = message.data;
      const chunkStart = this.position;
      this.position += data.length;
      const from = Math.max(0, this.range.start - chunkStart);
      const to = Math.min(data.length, this.range.end + 1 - chunkStart);
      const done = this.position > this.range.end;
      if (to > from) this.push(Buffer.from(data.buffer, data.byteOffset + from, to - from));
      if (done) this.push(null);
      if (to > from || done) return;
    }
  }
}
