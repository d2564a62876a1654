import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type MediaStorage, openMediaStorage } from '@social/platform';
import { type FakeS3, startFakeS3 } from '@social/testing';

/** The orphan sweep walks the bucket: the S3 adapter's listing, against a local S3-compatible server, signatures and all. */
describe('S3 media storage: list', () => {
  let s3: FakeS3;
  let storage: MediaStorage;

  beforeAll(async () => {
    s3 = await startFakeS3();
    const settings: Record<string, string> = {
      media_storage_driver: 's3',
      s3_endpoint: s3.settings.endpoint,
      s3_bucket: s3.settings.bucket,
      s3_region: s3.settings.region,
      s3_access_key_id: s3.settings.accessKeyId,
      s3_secret_access_key: s3.settings.secretAccessKey,
    };
    // S3 storage never touches NATS.
    storage = await openMediaStorage({ string: (key: string) => settings[key] ?? '' } as never, undefined as unknown as NatsConnection);
  });

  afterAll(async () => {
    await storage.close();
    await s3.stop();
  });

  it('answers every object under the prefix with its size, and none outside it', async () => {
    expect(storage.driver).toBe('s3');
    const put = (key: string, size: number) => storage.put(key, Readable.from([Buffer.alloc(size, 1)]), size);
    await put('workspaces/w1/media/a/uploads/1', 10);
    await put('workspaces/w1/media/b', 20);
    await put('workspaces/w2/media/c', 30);
    await put('exports/x', 40);
    const listed = [];
    for await (const object of storage.list('workspaces/w1/')) listed.push(object);
    expect(listed.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'workspaces/w1/media/a/uploads/1', size: 10 },
      { key: 'workspaces/w1/media/b', size: 20 },
    ]);
    const all = [];
    for await (const object of storage.list('')) all.push(object.key);
    expect(all).toHaveLength(4);
  });
});
