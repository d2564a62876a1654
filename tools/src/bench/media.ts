/**
 * Media under load (issue 11): a 100 MiB upload through the gateway's signed
 * URL beside a direct object-store put of the same bytes in the same run
 * (target: ≥ 0.7 of its throughput), the gateway's peak RSS growth during a
 * 1 GiB upload (target: < 64 MiB, i.e. streamed, not buffered), the
 * gateway's peak RSS growth during a slow download of that 1 GiB (paused for
 * a while after its first 16 MiB: same target, i.e. pulled from the object
 * store, not buffered), and `GET /media?workspace_id=` (a page of 50 of 200
 * seeded items) req/s.
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
  downloadMiBPerS: number;
  downloadRssGrowthMiB: number;
  downloadRssMet: boolean;
}

/** An ftyp box, so the bench's bytes sniff as video/mp4 (videos may be 4 GiB; other files 50 MiB). */
const FTYP = Buffer.concat([
  Buffer.from([0, 0, 0, 24]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2', 'latin1'),
]);

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
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
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
      res.on('end', () =>
        res.statusCode === 204
          ? resolve(Number(process.hrtime.bigint() - started) / 1e9)
          : reject(new Error(`upload answered ${res.statusCode}`)),
      );
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

/** Opens a session for `size` bytes and uploads them through the gateway: the seconds it took and the media id. */
async function uploadThroughGateway(
  baseUrl: string,
  token: string,
  workspaceId: string,
  size: number,
  block: Buffer,
): Promise<{ seconds: number; mediaId: string }> {
  const session = await postJson<{ media_id: string; upload: { url: string } }>(`${baseUrl}/media/upload-session`, token, {
    workspace_id: workspaceId,
    filename: 'bench.mp4',
    size,
    mime_type: 'video/mp4',
  });
  return { seconds: await putStream(session.upload.url, size, block), mediaId: session.media_id };
}

/** Completes an upload and waits until the item is ready (a 1 GiB completion outlasts the gateway's 10 s timeout). */
async function completeAndWait(baseUrl: string, token: string, workspaceId: string, mediaId: string): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const completing = await fetch(`${baseUrl}/media/upload-session/${mediaId}/complete`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ workspace_id: workspaceId }),
  });
  if (completing.status !== 200 && completing.status !== 504)
    throw new Error(`completion answered ${completing.status}: ${await completing.text()}`);
  for (let waited = 0; waited < 600_000; waited += 1000) {
    const item = (await (await fetch(`${baseUrl}/media/${mediaId}`, { headers })).json()) as { status?: string };
    if (item.status === 'ready') return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('the bench upload did not become ready');
}

/** Downloads an item's content, pausing `pauseMs` after its first 16 MiB (a slow client); resolves with the bytes and seconds. */
function slowDownload(baseUrl: string, token: string, mediaId: string, pauseMs: number): Promise<{ bytes: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(`${baseUrl}/media/${mediaId}/content`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`download answered ${res.statusCode}`));
      let bytes = 0;
      let paused = false;
      res.on('data', (part: Buffer) => {
        bytes += part.length;
        if (!paused && bytes >= 16 * MIB) {
          paused = true;
          res.pause();
          setTimeout(() => res.resume(), pauseMs);
        }
      });
      res.on('end', () => resolve({ bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function benchMediaUploads(options: {
  baseUrl: string;
  natsUrl: string;
  gatewayPid?: number;
  token: string;
  workspaceId: string;
}): Promise<MediaUploadFigures> {
  const block = randomBytes(MIB);
  FTYP.copy(block);
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

  const { seconds: gatewaySeconds } = await uploadThroughGateway(
    options.baseUrl,
    options.token,
    options.workspaceId,
    uploadMiB * MIB,
    block,
  );
  const gatewayMiBPerS = uploadMiB / gatewaySeconds;
  const directMiBPerS = uploadMiB / directSeconds;
  console.log(
    `media: ${uploadMiB} MiB upload: gateway ${gatewayMiBPerS.toFixed(1)} MiB/s, direct object-store put ${directMiBPerS.toFixed(1)} MiB/s`,
  );

  // RSS sampled every 20 ms during a 1 GiB upload (VmHWM would include peaks from before the run).
  let before = 0;
  let peak = 0;
  let bigSeconds = 0;
  let downloadMiBPerS = 0;
  let downloadGrowth = 0;
  if (options.gatewayPid) {
    const pid = options.gatewayPid;
    before = rssMiB(pid);
    peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
    let mediaId: string;
    try {
      ({ seconds: bigSeconds, mediaId } = await uploadThroughGateway(
        options.baseUrl,
        options.token,
        options.workspaceId,
        bigUploadMiB * MIB,
        block,
      ));
    } finally {
      clearInterval(sampler);
    }
    console.log(
      `media: ${bigUploadMiB} MiB upload at ${(bigUploadMiB / bigSeconds).toFixed(1)} MiB/s; ` +
        `gateway RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB`,
    );

    // The same object downloaded by a slow client: paused 5 s after 16 MiB, then read to the end.
    await completeAndWait(options.baseUrl, options.token, options.workspaceId, mediaId);
    const downloadBefore = rssMiB(pid);
    let downloadPeak = downloadBefore;
    const downloadSampler = setInterval(() => (downloadPeak = Math.max(downloadPeak, rssMiB(pid))), 20);
    try {
      const download = await slowDownload(options.baseUrl, options.token, mediaId, 5000);
      if (download.bytes !== bigUploadMiB * MIB) throw new Error(`the download gave ${download.bytes} bytes`);
      downloadMiBPerS = bigUploadMiB / download.seconds;
    } finally {
      clearInterval(downloadSampler);
    }
    downloadGrowth = downloadPeak - downloadBefore;
    console.log(
      `media: ${bigUploadMiB} MiB slow download (5 s pause) at ${downloadMiBPerS.toFixed(1)} MiB/s overall; ` +
        `gateway RSS ${downloadBefore.toFixed(0)} → peak ${downloadPeak.toFixed(0)} MiB`,
    );
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
    downloadMiBPerS,
    downloadRssGrowthMiB: downloadGrowth,
    downloadRssMet: options.gatewayPid !== undefined && downloadGrowth < RSS_GROWTH_TARGET_MIB,
  };
}

/** A workspace of the bench user with 200 ready media items, seeded straight into the media schema (one INSERT). */
export async function seedMediaLibrary(databaseUrl: string, workspaceId: string, userId: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO media.media_items (id, workspace_id, filename, size, status, mime_type, sha256, width, height, object_key, created_by,
                                     created_at, expires_at)
       SELECT gen_random_uuid(), $1::uuid, 'seeded-' || n || '.png', 1000 + n, 'ready', 'image/png',
              encode(sha256(($1::text || n)::bytea), 'hex'),
              1080, 1080, 'workspaces/' || $1::text || '/media/seeded-' || n, $2::uuid, now() - n * interval '1 second', now()
         FROM generate_series(1, $3::int) AS n`,
      [workspaceId, userId, LISTED_ITEMS],
    );
  } finally {
    await db.end();
  }
}
