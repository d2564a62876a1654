/**
 * Media under load (issue 11): a 100 MiB upload through the gateway's signed
 * URL beside a direct object-store put of the same bytes in the same run
 * (target: ≥ 0.7 of its throughput), the gateway's peak RSS growth during a
 * 1 GiB upload (target: < 64 MiB, i.e. streamed, not buffered), and
 * `GET /media?workspace_id=` (a page of 50 of 200 seeded items) req/s.
 */
import { connectNats, NatsObjectStorage } from '@social/platform';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';

const MIB = 1024 * 1024;
export const UPLOAD_RATIO_TARGET = 0.7;
export const RSS_GROWTH_TARGET_MIB = 64;
const LISTED_ITEMS = 200;

export interface MediaUploadFigures {
  uploadMiB: number;
  gatewayMiBPerS: number;
  directMiBPerS: number;
  ratio: number;
  ratioMet: boolean;
  bigUploadMiB: number;
  bigUploadMiBPerS: number;
  gatewayRssBeforeMiB: number;
  gatewayRssPeakMiB: number;
  gatewayRssGrowthMiB: number;
  rssMet: boolean;
}

/** `size` bytes made of one random MiB repeated, produced as they are read (the generator holds one MiB). */
function bytesOf(size: number, block: Buffer): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const part = block.subarray(0, Math.min(block.length, size - sent));
      sent += part.length;
      this.push(part);
    },
  });
}

async function postJson<T>(url: string, token: string, body: object, expected = 201): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.json().catch(() => undefined)) as T;
  if (res.status !== expected) throw new Error(`POST ${new URL(url).pathname} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** PUTs `size` bytes to a signed upload URL; resolves with the seconds it took. */
function putStream(url: string, size: number, block: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(url, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-length': String(size) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 204 ? resolve(Number(process.hrtime.bigint() - started) / 1e9) : reject(new Error(`upload answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    bytesOf(size, block).pipe(req);
  });
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Opens a session for `size` bytes and uploads them through the gateway. */
async function uploadThroughGateway(baseUrl: string, token: string, workspaceId: string, size: number, block: Buffer): Promise<number> {
  const session = await postJson<{ upload: { url: string } }>(`${baseUrl}/media/upload-session`, token, {
    workspace_id: workspaceId,
    filename: 'bench.mp4',
    size,
    mime_type: 'video/mp4',
  });
  return putStream(session.upload.url, size, block);
}

export async function benchMediaUploads(options: { baseUrl: string; natsUrl: string; gatewayPid?: number; token: string; workspaceId: string }): Promise<MediaUploadFigures> {
  const block = randomBytes(MIB);
  const uploadMiB = Number(process.env.BENCH_MEDIA_UPLOAD_MIB ?? 100);
  const bigUploadMiB = Number(process.env.BENCH_MEDIA_BIG_UPLOAD_MIB ?? 1024);

  // The same bytes, straight into the object store the gateway writes to (same bucket, same client library).
  const nc = await connectNats(options.natsUrl, 'bench-media');
  const direct = new NatsObjectStorage(nc);
  const directKey = `bench/direct/${uuidv7()}`;
  // One small put first, so bucket creation is not timed.
  await direct.put(`${directKey}-warm`, bytesOf(MIB, block));
  await direct.delete(`${directKey}-warm`);
  const directStarted = process.hrtime.bigint();
  await direct.put(directKey, bytesOf(uploadMiB * MIB, block));
  const directSeconds = Number(process.hrtime.bigint() - directStarted) / 1e9;
  await direct.delete(directKey);
  await nc.drain();

  const gatewaySeconds = await uploadThroughGateway(options.baseUrl, options.token, options.workspaceId, uploadMiB * MIB, block);
  const gatewayMiBPerS = uploadMiB / gatewaySeconds;
  const directMiBPerS = uploadMiB / directSeconds;
  console.log(`media: ${uploadMiB} MiB upload: gateway ${gatewayMiBPerS.toFixed(1)} MiB/s, direct object-store put ${directMiBPerS.toFixed(1)} MiB/s`);

  // RSS sampled every 20 ms during a 1 GiB upload (VmHWM would include peaks from before the run).
  let before = 0;
  let peak = 0;
  let bigSeconds = 0;
  if (options.gatewayPid) {
    before = rssMiB(options.gatewayPid);
    peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(options.gatewayPid!))), 20);
    try {
      bigSeconds = await uploadThroughGateway(options.baseUrl, options.token, options.workspaceId, bigUploadMiB * MIB, block);
    } finally {
      clearInterval(sampler);
    }
    console.log(`media: ${bigUploadMiB} MiB upload at ${(bigUploadMiB / bigSeconds).toFixed(1)} MiB/s; gateway RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB`);
  } else {
    console.log('media: no gateway pid in .data/stack.json: the RSS figure is skipped');
  }
  const ratio = gatewayMiBPerS / directMiBPerS;
  return {
    uploadMiB,
    gatewayMiBPerS,
    directMiBPerS,
    ratio,
    ratioMet: ratio >= UPLOAD_RATIO_TARGET,
    bigUploadMiB,
    bigUploadMiBPerS: bigSeconds ? bigUploadMiB / bigSeconds : 0,
    gatewayRssBeforeMiB: before,
    gatewayRssPeakMiB: peak,
    gatewayRssGrowthMiB: peak - before,
    rssMet: options.gatewayPid !== undefined && peak - before < RSS_GROWTH_TARGET_MIB,
  };
}

/** A workspace of the bench user with 200 ready media items, seeded straight into the media schema (one INSERT). */
export async function seedMediaLibrary(databaseUrl: string, workspaceId: string, userId: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO media.media_items (id, workspace_id, filename, size, status, mime_type, sha256, width, height, object_key, created_by, created_at, expires_at)
       SELECT gen_random_uuid(), $1::uuid, 'seeded-' || n || '.png', 1000 + n, 'ready', 'image/png', encode(sha256(($1::text || n)::bytea), 'hex'),
              1080, 1080, 'workspaces/' || $1::text || '/media/seeded-' || n, $2::uuid, now() - n * interval '1 second', now()
         FROM generate_series(1, $3::int) AS n`,
      [workspaceId, userId, LISTED_ITEMS],
    );
  } finally {
    await db.end();
  }
}
