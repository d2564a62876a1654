import { describe, expect, it } from '@jest/globals';
import { PassThrough, Readable } from 'node:stream';
import { Problem } from '../problems/problem.js';
import { guardedStorage } from './guarded-storage.js';
import type { MediaStorage } from './media-storage.js';

const failing = (error: unknown): MediaStorage => ({
  driver: 'nats',
  put: async (_key, body) => {
    await new Promise((resolve) => setImmediate(resolve));
    throw body.errored ?? error;
  },
  read: () => Promise.reject(error),
  stat: () => Promise.reject(error),
  delete: () => Promise.reject(error),
  copy: () => Promise.reject(error),
  // A listing whose first page fails.
  list: async function* () {
    yield* await Promise.reject<Array<{ key: string; size: number }>>(error);
  },
  close: async () => undefined,
});

const listAll = async (storage: MediaStorage) => {
  const keys: string[] = [];
  for await (const object of storage.list('w')) keys.push(object.key);
  return keys;
};

describe('guardedStorage', () => {
  it("answers storage's own failures as 503 storage_unavailable with Retry-After, logged with the cause", async () => {
    const logged: object[] = [];
    const storage = guardedStorage(failing(new Error('stream not found')), { warn: (details) => logged.push(details) });
    for (const attempt of [
      () => storage.read('k'),
      () => storage.stat('k'),
      () => storage.delete('k'),
      () => storage.copy!('k', 'l'),
      () => storage.put('k', Readable.from([Buffer.from('x')])),
      () => listAll(storage),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ status: 503, code: 'storage_unavailable', options: { retryAfter: 5 } });
    }
    expect(logged).toHaveLength(6);
    expect(storage.createUploadTarget).toBeUndefined();
  });

  it("passes Problems and a put body's own failure (a client gone, a byte limit) through unchanged", async () => {
    const tooLarge = new Problem(413, 'media_too_large', 'too large');
    await expect(guardedStorage(failing(tooLarge)).read('k')).rejects.toBe(tooLarge);
    const body = new PassThrough();
    body.on('error', () => undefined);
    const gone = new Error('aborted');
    body.destroy(gone);
    await expect(guardedStorage(failing(new Error('storage'))).put('k', body)).rejects.toBe(gone);
  });
});
