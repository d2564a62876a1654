import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { call, randomIp } from './api.js';

export const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * A PNG of `width` × `height` (signature, IHDR, an IDAT of random bytes so
 * each is unique, IEND; CRCs are not checked by readers of dimensions).
 */
export function pngBytes(width: number, height: number, padding = 64): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(data.length, 0);
    header.write(type, 4, 'latin1');
    return Buffer.concat([header, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', randomBytes(padding)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const box = (type: string, content: Buffer) => {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + content.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, content]);
};

/** An MP4 whose `moov` (with an `mvhd` saying `durationMs`) comes after `mdat`, as cameras write them. */
export function mp4Bytes(durationMs: number, mdatBytes = 4096): Buffer {
  const ftyp = box(
    'ftyp',
    Buffer.concat([Buffer.from('isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'latin1')]),
  );
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(0, 0); // version 0, flags
  mvhd.writeUInt32BE(1000, 12); // timescale
  mvhd.writeUInt32BE(durationMs, 16); // duration in timescale units (ms)
  return Buffer.concat([ftyp, box('mdat', randomBytes(mdatBytes)), box('moov', box('mvhd', mvhd))]);
}

export interface OpenedSession {
  status: number;
  body: any;
  headers: Headers;
}

export async function openSession(token: string, body: Record<string, unknown>, idempotencyKey?: string): Promise<OpenedSession> {
  const response = await call('POST', '/media/upload-session', {
    token,
    body,
    headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });
  return response;
}

/** PUTs raw bytes to a signed upload URL (no bearer token). */
export async function putBytes(
  url: string,
  bytes: Buffer | undefined,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'x-forwarded-for': randomIp(), ...headers },
    body: bytes,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text,
  };
}

/** Opens, uploads and completes: the ready MediaItem. */
export async function uploadMedia(token: string, workspaceId: string, bytes: Buffer, filename = 'picture.png'): Promise<any> {
  const session = await openSession(token, { workspace_id: workspaceId, filename, size: bytes.length });
  expect(session.status).toBe(201);
  const put = await putBytes(session.body.upload.url, bytes, session.body.upload.headers);
  expect(put.status).toBe(204);
  const completed = await call('POST', `/media/upload-session/${session.body.media_id}/complete`, {
    token,
    body: { workspace_id: workspaceId },
  });
  expect(completed.status).toBe(200);
  return completed.body;
}

/**
 * A real MP4 made by ffmpeg: `seconds` of testsrc at `fps`, 320×240,
 * H.264; `faststart` puts the `moov` box first (else it is at the end).
 */
export function makeMp4(options: { seconds: number; fps: number; faststart: boolean; size?: string }): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-video-'));
  try {
    const file = join(dir, 'clip.mp4');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc=duration=${options.seconds}:size=${options.size ?? '320x240'}:rate=${options.fps}`,
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      ...(options.faststart ? ['-movflags', '+faststart'] : []),
      file,
    ]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
