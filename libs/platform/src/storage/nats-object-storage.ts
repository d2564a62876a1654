import { Objm, StorageType, type ObjectStore } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type ByteRange, type MediaStorage, sliceStream } from './media-storage.js';

/** The default bucket of media objects. */
export const MEDIA_OBJECT_BUCKET = 'media';

/**
 * Media in the NATS JetStream object store: one bucket (file storage), objects
 * named by their key. A put publishes 128 KiB chunks and writes the object's
 * entry only at the end, so a failed or abandoned upload leaves no object (its
 * chunks are purged).
 */
export class NatsObjectStorage implements MediaStorage {
  readonly driver = 'nats' as const;
  private store?: Promise<ObjectStore>;

  constructor(
    private readonly nats: NatsConnection,
    private readonly bucket = MEDIA_OBJECT_BUCKET,
  ) {}

  private open(): Promise<ObjectStore> {
    this.store ??= new Objm(this.nats).create(this.bucket, { storage: StorageType.File }).catch((error: unknown) => {
      this.store = undefined;
      throw error;
    });
    return this.store;
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const store = await this.open();
    const info = await store.put({ name: key }, Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>, { timeout: 30_000 });
    return { size: info.size };
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    const store = await this.open();
    const result = await store.get(key);
    if (!result) return null;
    const stream = Readable.fromWeb(result.data as unknown as WebReadableStream<Uint8Array>);
    return range ? sliceStream(stream, range) : stream;
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

  async close(): Promise<void> {
    // The connection belongs to the caller.
  }
}
