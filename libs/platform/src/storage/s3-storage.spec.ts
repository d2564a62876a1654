import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { S3Storage } from './s3-storage.js';

/** The S3 adapter's listing against a local S3-compatible server (s3rver), signatures and all. */
describe('S3Storage.list', () => {
  const directory = mkdtempSync(join(tmpdir(), 's3-list-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true, configureBuckets: [{ name: 'media' }] });
  let storage: S3Storage;

  beforeAll(async () => {
    const { port } = await server.run();
    storage = new S3Storage({ endpoint: `http://127.0.0.1:${port}`, bucket: 'media', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
  });

  afterAll(async () => {
    await storage.close();
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('answers every object under the prefix with its size, and none outside it', async () => {
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
