import { afterAll, describe, expect, it } from '@jest/globals';
import type { ByteRange, MediaStorage } from '@social/platform';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { LoopbackObjects } from './loopback-source.js';
import { extractPosterFrame, probeVideo } from './video-probe.js';

/** Storage holding objects in memory, counting the bytes it streams out. */
function memoryStorage(objects: Record<string, Buffer>, failing = false) {
  const served = { bytes: 0, starts: [] as number[] };
  const storage: MediaStorage = {
    driver: 'nats',
    put: async () => ({ size: 0 }),
    list: async function* (prefix: string) {
      for (const [key, bytes] of Object.entries(objects)) if (key.startsWith(prefix)) yield { key, size: bytes.length };
    },
    read: async (key: string, range?: ByteRange) => {
      if (failing) throw new Error('storage is down');
      const object = objects[key];
      if (!object) return null;
      served.starts.push(range?.start ?? 0);
      const slice = range ? object.subarray(range.start, range.end + 1) : object;
      // Chunks of 64 KiB, pulled one at a time as a store streams them; only what is pulled counts.
      return Readable.from(
        (function* () {
          for (let at = 0; at < slice.length; at += 65536) {
            const chunk = slice.subarray(at, at + 65536);
            served.bytes += chunk.length;
            yield chunk;
          }
        })(),
        { highWaterMark: 1 },
      );
    },
    stat: async (key: string) => (objects[key] ? { size: objects[key].length } : null),
    delete: async () => undefined,
    close: async () => undefined,
  };
  return { storage, served };
}

function makeVideo(args: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'probe-spec-'));
  try {
    const file = join(dir, 'clip.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, file]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const logger = pino({ level: 'silent' });
const tool = (command: string) => ({ command, timeoutMs: 30_000 });

describe('LoopbackObjects with ffprobe and ffmpeg', () => {
  const sources: LoopbackObjects[] = [];
  afterAll(async () => {
    for (const source of sources) await source.close();
  });

  it('lets ffprobe find a moov box at the end of a video by seeking with a range request (no sequential read to it)', async () => {
    // 3 s of noise at 30 fps (several MB), moov written at the end (no faststart).
    const video = makeVideo([
      '-f',
      'lavfi',
      '-i',
      'nullsrc=size=320x180:rate=30,geq=random(1)*255:128:128',
      '-t',
      '3',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-qp',
      '20',
    ]);
    expect(video.length).toBeGreaterThan(2_000_000);
    const { storage, served } = memoryStorage({ clip: video });
    const source = new LoopbackObjects(storage, logger);
    sources.push(source);
    const lent = await source.lend('clip', video.length);
    expect(lent.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{48}$/);
    const facts = await probeVideo(lent.url, tool('ffprobe'));
    expect(facts).toEqual({ durationMs: 3000, frameRate: 30, width: 320, height: 180 });
    // It jumped to the moov box (after mdat) with a range request rather than reading its way there.
    const moovAt = video.lastIndexOf(Buffer.from('moov', 'latin1')) - 4;
    expect(moovAt).toBeGreaterThan(video.length / 2);
    expect(served.starts).toContain(moovAt);
    expect(lent.storageFailed()).toBe(false);

    const frame = await extractPosterFrame(lent.url, 1000, { ...tool('ffmpeg'), maxBytes: 16 * 1024 * 1024 });
    expect(frame.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    lent.close();
    // Once returned, the path names nothing.
    expect((await fetch(lent.url)).status).toBe(404);
  }, 60_000);

  it('answers ranges (206), HEAD and 416 like the content route; unknown paths are 404', async () => {
    const bytes = Buffer.from('0123456789abcdef');
    const source = new LoopbackObjects(memoryStorage({ k: bytes }).storage, logger);
    sources.push(source);
    const lent = await source.lend('k', bytes.length);
    const part = await fetch(lent.url, { headers: { range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/16');
    expect(await part.text()).toBe('2345');
    const head = await fetch(lent.url, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe('16');
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect((await fetch(lent.url, { headers: { range: 'bytes=16-' } })).status).toBe(416);
    expect((await fetch(`${lent.url}0`)).status).toBe(404);
    expect((await fetch(lent.url, { method: 'POST' })).status).toBe(404);
  });

  it('says when storage failed while a tool read (a retry, not a broken video)', async () => {
    const source = new LoopbackObjects(memoryStorage({ k: Buffer.alloc(10) }, true).storage, logger);
    sources.push(source);
    const lent = await source.lend('k', 10);
    await expect(probeVideo(lent.url, tool('ffprobe'))).rejects.toMatchObject({ kind: 'refused' });
    expect(lent.storageFailed()).toBe(true);
  });

  it('an aborted run kills the tool: a ToolFailure of kind aborted', async () => {
    const controller = new AbortController();
    // ffprobe waiting on a server that never answers, until the abort.
    const silent = (await import('node:net')).createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const probing = probeVideo(`http://127.0.0.1:${port}/x`, { ...tool('ffprobe'), signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(probing).rejects.toMatchObject({ kind: 'aborted' });
    silent.close();
  });

  it('a missing binary is a ToolFailure of kind missing', async () => {
    await expect(probeVideo('http://127.0.0.1:1/x', tool('/nonexistent/ffprobe'))).rejects.toMatchObject({ kind: 'missing' });
  });
});
