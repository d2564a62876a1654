import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, guardedStorage, NatsObjectStorage, Problem } from '../index.js';
import { PrivateNats, startPrivateNats } from '@social/testing';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

// MEDIA_OBJECT_STORE_MAX_BYTES: the media bucket's max_bytes, against a real nats-server with JetStream.

const streamOf = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
    })(),
  );

let nats: PrivateNats;
let nc: NatsConnection;

beforeAll(async () => {
  nats = await startPrivateNats();
  nc = await connectNats(nats.url, 'object-store-limit-spec');
});

afterAll(async () => {
  await nc?.drain();
  await nats?.stop();
});

describe('the media bucket holds at most max_bytes', () => {
  it(
    'answers a put past the limit with 507 storage_full (through guardedStorage, ' +
      'not 503), keeps nothing of it, and still takes what fits',
    async () => {
      const bucket = `limit-${Date.now()}`;
      const storage = guardedStorage(new NatsObjectStorage(nc, bucket, { maxBytes: 512 * 1024 }));
      await storage.put('fits', streamOf(randomBytes(200 * 1024)));
      const refusal = await storage.put('too-much', streamOf(randomBytes(600 * 1024))).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(Problem);
      expect(refusal).toMatchObject({ status: 507, code: 'storage_full' });
      expect(await storage.stat('too-much')).toBeNull();
      expect(await storage.stat('fits')).toEqual({ size: 200 * 1024 });
      // The refused put's chunks are gone: the room it took is free again.
      await storage.put('fits-too', streamOf(randomBytes(200 * 1024)));
      expect(await storage.stat('fits-too')).toEqual({ size: 200 * 1024 });
    },
  );

  it('sets max_bytes on a bucket created before the limit', async () => {
    const bucket = `unlimited-${Date.now()}`;
    const before = new NatsObjectStorage(nc, bucket);
    await before.put('old', streamOf(randomBytes(1024)));
    const jsm = await jetstreamManager(nc);
    expect((await jsm.streams.info(`OBJ_${bucket}`)).config.max_bytes).toBe(-1);
    const after = new NatsObjectStorage(nc, bucket, { maxBytes: 1024 ** 2 });
    expect(await after.stat('old')).toEqual({ size: 1024 });
    expect((await jsm.streams.info(`OBJ_${bucket}`)).config.max_bytes).toBe(1024 ** 2);
  });
});
