import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, type MediaStorage, NatsObjectStorage, openMediaStorage, s3OptionsFrom } from '../index.js';
import { FakeS3, PrivateNats, startFakeS3, startPrivateNats } from '@social/testing';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

// The specs of libs/platform/src/storage: both adapters against real servers
// (a private nats-server with JetStream, and s3rver, a local S3-compatible one).

const collect = async (stream: Readable) => {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
};

/** A stream of `bytes` in uneven chunks, as a socket delivers them. */
const chunked = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 50_001) yield bytes.subarray(at, at + 50_001);
    })(),
  );

const settingsOf = (values: Record<string, string>) => ({ string: (key: string) => values[key] ?? '' });

let nats: PrivateNats;
let nc: NatsConnection;
let s3: FakeS3;

beforeAll(async () => {
  nats = await startPrivateNats();
  nc = await connectNats(nats.url, 'storage-spec');
  s3 = await startFakeS3();
});

afterAll(async () => {
  await nc?.drain();
  await nats?.stop();
  await s3?.stop();
});

describe.each([
  ['the NATS object store', () => new NatsObjectStorage(nc, `spec-${Date.now()}`) as MediaStorage],
  [
    'S3-compatible storage',
    () =>
      openMediaStorage(
        settingsOf({
          s3_endpoint: s3.settings.endpoint,
          s3_bucket: s3.settings.bucket,
          s3_region: s3.settings.region,
          s3_access_key_id: s3.settings.accessKeyId,
          s3_secret_access_key: s3.settings.secretAccessKey,
        }),
        nc,
      ),
  ],
])('media storage: %s', (_name, open) => {
  let storage: MediaStorage;
  beforeAll(async () => {
    storage = await open();
  });
  afterAll(async () => {
    await storage.close();
  });

  it('stores a stream, reads it whole and by range, stats and deletes it', async () => {
    const bytes = randomBytes(700_000);
    const key = `workspaces/w/media/${randomBytes(4).toString('hex')}`;
    expect(await storage.stat(key)).toBeNull();
    expect(await storage.read(key)).toBeNull();
    expect(await storage.put(key, chunked(bytes), bytes.length)).toEqual({ size: bytes.length });
    expect(await storage.stat(key)).toEqual({ size: bytes.length });
    const whole = await collect((await storage.read(key))!);
    expect(createHash('sha256').update(whole).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    for (const range of [
      { start: 0, end: 0 },
      { start: 131_000, end: 262_500 },
      { start: bytes.length - 10, end: bytes.length - 1 },
    ]) {
      const got = await collect((await storage.read(key, range))!);
      expect({ range, length: got.length, same: got.equals(bytes.subarray(range.start, range.end + 1)) }).toEqual({
        range,
        length: range.end - range.start + 1,
        same: true,
      });
    }
    // Replacing keeps only the new bytes.
    const replacement = randomBytes(1000);
    await storage.put(key, chunked(replacement), replacement.length);
    expect((await collect((await storage.read(key))!)).equals(replacement)).toBe(true);
    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
    await storage.delete(key);
  });

  it('a stream that fails midway leaves no object', async () => {
    const key = `workspaces/w/media/${randomBytes(4).toString('hex')}`;
    const failing = new Readable({
      read() {
        this.push(randomBytes(200_000));
        setImmediate(() => this.destroy(new Error('client went away')));
      },
    });
    await expect(storage.put(key, failing, 1_000_000)).rejects.toThrow();
    expect(await storage.stat(key)).toBeNull();
  });
});

describe('media storage: reading from the NATS object store', () => {
  let storage: NatsObjectStorage;
  beforeAll(() => {
    storage = new NatsObjectStorage(nc, `spec-read-${Date.now()}`);
  });

  it('a paused reader of a large object holds a chunk or two, not the object', async () => {
    const size = 96 * 1024 * 1024;
    const key = 'workspaces/w/media/large';
    const block = randomBytes(1024 * 1024);
    await storage.put(
      key,
      Readable.from(
        (function* () {
          for (let i = 0; i < size / block.length; i += 1) yield block;
        })(),
      ),
    );
    global.gc?.();
    const before = process.memoryUsage();
    const stream = (await storage.read(key))!;
    const first = await new Promise<Buffer>((resolve) => stream.once('data', resolve));
    stream.pause();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = process.memoryUsage();
    expect(first.length).toBeGreaterThan(0);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(8 * 1024 * 1024);
    expect(after.rss - before.rss).toBeLessThan(32 * 1024 * 1024);
    // Resumed, it reads the rest exactly.
    let total = first.length;
    let same = first.equals(block.subarray(0, first.length));
    for await (const part of stream) {
      const at = total % block.length;
      same &&= (part as Buffer).equals(block.subarray(at, at + (part as Buffer).length));
      total += (part as Buffer).length;
    }
    expect({ total, same }).toEqual({ total: size, same: true });
    await storage.delete(key);
  }, 60_000);

  it('ranges are exact, whether the chunks sit together (skipped to) or interleave with another upload (read past)', async () => {
    const a = randomBytes(1_000_000);
    const b = randomBytes(1_000_000);
    await storage.put('together', chunked(a));
    // Two puts at once: their chunks interleave in the stream.
    const slow = (bytes: Buffer) =>
      Readable.from(
        (async function* () {
          for (let at = 0; at < bytes.length; at += 100_000) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            yield bytes.subarray(at, at + 100_000);
          }
        })(),
      );
    await Promise.all([storage.put('mixed-a', slow(a)), storage.put('mixed-b', slow(b))]);
    for (const [key, bytes] of [
      ['together', a],
      ['mixed-a', a],
      ['mixed-b', b],
    ] as const) {
      for (const range of [
        { start: 0, end: 0 },
        { start: 131_072, end: 131_072 },
        { start: 131_071, end: 262_144 },
        { start: 500_000, end: 999_999 },
        { start: 999_999, end: 999_999 },
      ]) {
        const got = await collect((await storage.read(key, range))!);
        expect({ key, range, same: got.equals(bytes.subarray(range.start, range.end + 1)) }).toEqual({ key, range, same: true });
      }
      expect((await collect((await storage.read(key))!)).equals(bytes)).toBe(true);
    }
  });
});

describe('media storage: S3 presigned uploads and the choice of adapter', () => {
  const s3Settings = () => ({
    s3_endpoint: s3.settings.endpoint,
    s3_bucket: s3.settings.bucket,
    s3_region: s3.settings.region,
    s3_access_key_id: s3.settings.accessKeyId,
    s3_secret_access_key: s3.settings.secretAccessKey,
  });

  it('a presigned PUT takes the bytes from the client directly', async () => {
    const storage = await openMediaStorage(settingsOf(s3Settings()), nc);
    expect(storage.driver).toBe('s3');
    const bytes = randomBytes(5000);
    const key = `workspaces/w/media/${randomBytes(4).toString('hex')}`;
    const target = await storage.createUploadTarget!(key, bytes.length, 'image/png', new Date(Date.now() + 60_000));
    expect(target.headers).toEqual({ 'Content-Type': 'image/png' });
    expect(target.url).toMatch(/X-Amz-Signature=/);
    const put = await fetch(target.url, { method: 'PUT', headers: target.headers, body: bytes });
    expect(put.status).toBe(200);
    expect(await storage.stat(key)).toEqual({ size: bytes.length });
    expect((await collect((await storage.read(key))!)).equals(bytes)).toBe(true);
    // A completion snapshots the presigned key: the URL can still overwrite the key, never the copy.
    const snapshot = `${key}/uploads/${randomBytes(4).toString('hex')}`;
    expect(await storage.copy!(key, snapshot)).toBe(true);
    expect((await fetch(target.url, { method: 'PUT', headers: target.headers, body: randomBytes(5000) })).status).toBe(200);
    expect((await collect((await storage.read(snapshot))!)).equals(bytes)).toBe(true);
    expect(await storage.copy!(`${key}-missing`, `${snapshot}-2`)).toBe(false);
    await storage.close();
  });

  it('S3 applies when media_storage_driver is s3 or all five settings are set; s3 with settings missing is an error', async () => {
    expect(s3OptionsFrom(settingsOf({}))).toBeNull();
    expect(s3OptionsFrom(settingsOf({ ...s3Settings(), s3_secret_access_key: '' }))).toBeNull();
    expect(s3OptionsFrom(settingsOf(s3Settings()))).toMatchObject({ bucket: 'media' });
    expect(() => s3OptionsFrom(settingsOf({ media_storage_driver: 's3', s3_bucket: 'b' }))).toThrow(/s3_endpoint/);
    expect((await openMediaStorage(settingsOf({ media_storage_driver: 'nats' }), nc)).driver).toBe('nats');
  });
});
