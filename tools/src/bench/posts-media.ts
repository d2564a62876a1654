/**
 * Posts that carry their media (issue 21), under load:
 * - 200 publications of four 4000×3000 JPEGs each (with EXIF) delivered to the sandbox, every image read from
 *   the media storage and resized to the sandbox's limits: renditions per second, and the publishing
 *   service's RSS growth while they go out (target < 256 MiB);
 * - one 500 MiB video delivered to the fake Mastodon server (POST /api/v2/media, streamed from storage):
 *   the publishing service's RSS growth during it (target < 64 MiB, i.e. streamed, never buffered).
 *
 * It runs a platform of its own (a private nats-server, a temporary database, the built apps), so that
 * publishing reaches the fake Mastodon server through PROVIDER_API_ORIGINS and its process can be sampled.
 * Publications are seeded an hour ahead with their media attached (PATCH), then made due at one instant.
 */
import { startFakeMastodon, type FakeMastodon, type FakeMastodonMedia } from '@social/testing';
import { SecretBox } from '@social/platform';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import pg from 'pg';
import sharp from 'sharp';
import { v7 as uuidv7 } from 'uuid';
import { api, inParallel } from './seeding.js';
import { type BenchPlatform, withBenchPlatform } from './private-platform.js';

const MIB = 1024 * 1024;
export const POSTS_MEDIA_PUBLICATIONS = Number(process.env.BENCH_POSTS_MEDIA_PUBLICATIONS ?? 200);
export const POSTS_MEDIA_VIDEO_MIB = Number(process.env.BENCH_POSTS_MEDIA_VIDEO_MIB ?? 500);
export const IMAGES_RSS_TARGET_MIB = 256;
export const VIDEO_RSS_TARGET_MIB = 64;
const IMAGES_PER_POST = 4;
const SEED_CONCURRENCY = 8;
/** The fake Mastodon server's host as publishing sees it (PROVIDER_API_ORIGINS sends mastodon's calls to the fake). */
const MASTODON_SERVER = 'bench-mastodon.example';

export interface PostsMediaFigures {
  publications: number;
  images: number;
  imagesSeconds: number;
  renditionsPerS: number;
  imagesRssBeforeMiB: number;
  imagesRssPeakMiB: number;
  imagesRssGrowthMiB: number;
  imagesRssMet: boolean;
  /** Every rendition published, each with four images within the sandbox's limits and without EXIF. */
  imagesDelivered: boolean;
  videoMiB: number;
  videoSeconds: number;
  videoRssBeforeMiB: number;
  videoRssPeakMiB: number;
  videoRssGrowthMiB: number;
  videoRssMet: boolean;
  /** The fake server received the whole video (size and SHA-256 as uploaded). */
  videoDelivered: boolean;
  met: boolean;
}

function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}

/** Samples a process's RSS every 20 ms until stopped: its value before and its peak. */
export function sampleRss(pid: number): { before: number; stop: () => { before: number; peak: number } } {
  const before = rssMiB(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
  return {
    before,
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, rssMiB(pid));
      return { before, peak };
    },
  };
}

/** A 4000×3000 camera-like JPEG (noise, EXIF with a GPS position), about 3 MB. */
const cameraPhoto = () =>
  sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 8 } } })
    .withExif({ IFD0: { Make: 'Bench' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1' } })
    .jpeg({ quality: 90 })
    .toBuffer();

/** An MP4 of `size` bytes (ftyp, one mdat of one random MiB repeated, moov), produced as it is read: never held whole. */
export function mp4Stream(size: number): Readable {
  const box = (type: string, content: Buffer) => {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(8 + content.length, 0);
    header.write(type, 4, 'latin1');
    return Buffer.concat([header, content]);
  };
  const ftyp = box(
    'ftyp',
    Buffer.concat([Buffer.from('isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'latin1')]),
  );
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(60_000, 16);
  const moov = box('moov', box('mvhd', mvhd));
  const mdatBytes = size - ftyp.length - moov.length;
  const mdatHeader = Buffer.alloc(8);
  mdatHeader.writeUInt32BE(mdatBytes, 0);
  mdatHeader.write('mdat', 4, 'latin1');
  const block = randomBytes(MIB);
  let left = mdatBytes - 8;
  return Readable.from(
    (function* () {
      yield Buffer.concat([ftyp, mdatHeader]);
      while (left > 0) {
        const part = block.subarray(0, Math.min(block.length, left));
        left -= part.length;
        yield part;
      }
      yield moov;
    })(),
  );
}

/** Opens an upload session, PUTs the bytes (streamed), completes it and waits until the item is ready: its id. */
export async function upload(
  baseUrl: string,
  token: string,
  workspaceId: string,
  filename: string,
  size: number,
  body: () => Readable,
): Promise<string> {
  const session = await api<{ media_id: string; upload: { url: string; headers: Record<string, string> } }>(
    baseUrl,
    token,
    'POST',
    '/media/upload-session',
    { workspace_id: workspaceId, filename, size },
    201,
  );
  await new Promise<void>((resolve, reject) => {
    const req = request(
      session.upload.url,
      { method: 'PUT', headers: { ...session.upload.headers, 'content-length': String(size) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`upload of ${filename} answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    body().pipe(req);
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const completing = await fetch(`${baseUrl}/media/upload-session/${session.media_id}/complete`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ workspace_id: workspaceId }),
  });
  if (completing.status !== 200 && completing.status !== 504)
    throw new Error(`completing ${filename} answered ${completing.status}: ${await completing.text()}`);
  for (let waited = 0; waited < 600_000; waited += 500) {
    const item = (await (await fetch(`${baseUrl}/media/${session.media_id}`, { headers })).json()) as { status?: string };
    if (item.status === 'ready') return session.media_id;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${filename} did not become ready`);
}

/** A draft with these media attached (alt texts numbered), scheduled to one account an hour ahead (not due yet): the rendition's id. */
export async function scheduledRendition(
  baseUrl: string,
  token: string,
  workspaceId: string,
  accountId: string,
  text: string,
  mediaIds: string[],
): Promise<{ publicationId: string; renditionId: string }> {
  const draft = await api<{ id: string; revision: number }>(
    baseUrl,
    token,
    'POST',
    '/publications',
    { workspace_id: workspaceId, content_profile: 'short_text', title: '', source_text: text },
    201,
  );
  const media = mediaIds.map((id, index) => ({ media_id: id, alt_text: `Bench image ${index + 1}` }));
  const attached = await api<{ revision: number }>(
    baseUrl,
    token,
    'PATCH',
    `/publications/${draft.id}`,
    { expected_revision: draft.revision, media },
    200,
  );
  const scheduled = await api<{ renditions: Array<{ id: string }> }>(
    baseUrl,
    token,
    'POST',
    `/publications/${draft.id}/schedule`,
    { expected_revision: attached.revision, scheduled_at: new Date(Date.now() + 3_600_000).toISOString(), account_ids: [accountId] },
    200,
  );
  return { publicationId: draft.id, renditionId: scheduled.renditions[0].id };
}

/** Makes the renditions due at once (as if their hour had come). */
export async function release(db: pg.Client, renditionIds: string[]): Promise<void> {
  await db.query(`UPDATE publishing.renditions SET next_action_at = now() WHERE id = ANY($1::uuid[])`, [renditionIds]);
}

export async function waitPublished(
  db: pg.Client,
  renditionIds: string[],
  timeoutMs: number,
): Promise<{ published: number; failed: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ published: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE status = 'published')::int AS published, count(*) FILTER (WHERE status = 'failed')::int AS failed
         FROM publishing.renditions WHERE id = ANY($1::uuid[])`,
      [renditionIds],
    );
    if (rows[0].published + rows[0].failed === renditionIds.length || Date.now() > deadline) return rows[0];
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A mastodon account of the fake server, stored as a connection would store it (its grant sealed with the stack's key). */
async function mastodonAccount(
  db: pg.Client,
  fake: FakeMastodon,
  secretsKey: string,
  workspaceId: string,
  userId: string,
): Promise<string> {
  const accessToken = `bench-${randomBytes(12).toString('hex')}`;
  const remote = (await (
    await fetch(`${fake.controlUrl}/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: accessToken, username: 'bench' }),
    })
  ).json()) as { id: string };
  const id = uuidv7();
  const sealed = SecretBox.fromBase64Key(secretsKey).seal(JSON.stringify({ accessToken }), `social_accounts:${id}`);
  await db.query(
    `INSERT INTO publishing.social_accounts (id, workspace_id, platform, external_id, username, display_name, avatar_url, instance_url,
       status, credentials, connected_by, created_at, updated_at)
     VALUES ($1, $2, 'mastodon', $3, $4, 'Bench', '', $5, 'active', $6, $7, now(), now())`,
    [id, workspaceId, `${remote.id}@${MASTODON_SERVER}`, `bench@${MASTODON_SERVER}`, `https://${MASTODON_SERVER}`, sealed, userId],
  );
  return id;
}

export async function benchPostsMedia(): Promise<PostsMediaFigures> {
  console.log(
    `\nposts-media: ${POSTS_MEDIA_PUBLICATIONS} publications × ${IMAGES_PER_POST} JPEGs of ` +
      `4000×3000 → sandbox (target publishing RSS growth < ${IMAGES_RSS_TARGET_MIB} MiB), ` +
      `then a ${POSTS_MEDIA_VIDEO_MIB} MiB video → fake Mastodon (target < ${VIDEO_RSS_TARGET_MIB} MiB)`,
  );
  const mastodon = await startFakeMastodon();
  try {
    return await withBenchPlatform('posts-media', { providerOrigins: { mastodon: mastodon.origin } }, (platform) =>
      deliverPostsMedia(platform, mastodon),
    );
  } finally {
    await mastodon.stop();
  }
}

async function deliverPostsMedia(
  { baseUrl, db, secretsKey, token, userId, workspaceId, publishingPid, logFile }: BenchPlatform,
  mastodon: FakeMastodon,
): Promise<PostsMediaFigures> {
  const workspace = { id: workspaceId };
  const sandbox = await api<{ id: string }>(
    baseUrl,
    token,
    'POST',
    '/social-accounts/connect',
    { workspace_id: workspace.id, provider: 'sandbox' },
    201,
  );

  // Images: four photos in the library, attached to every publication.
  const photoIds: string[] = [];
  for (let index = 0; index < IMAGES_PER_POST; index++) {
    const photo = await cameraPhoto();
    photoIds.push(await upload(baseUrl, token, workspace.id, `photo-${index}.jpg`, photo.length, () => Readable.from([photo])));
  }
  const renditions: string[] = new Array(POSTS_MEDIA_PUBLICATIONS);
  await inParallel(POSTS_MEDIA_PUBLICATIONS, SEED_CONCURRENCY, async (index) => {
    renditions[index] = (
      await scheduledRendition(baseUrl, token, workspace.id, sandbox.id, `Bench post ${index} with four photos`, photoIds)
    ).renditionId;
  });
  console.log(`  seeded ${POSTS_MEDIA_PUBLICATIONS} scheduled publications; releasing them at once`);
  const imagesRss = sampleRss(publishingPid);
  const imagesStarted = Date.now();
  await release(db, renditions);
  const imagesOutcome = await waitPublished(db, renditions, 1_800_000);
  const imagesSeconds = (Date.now() - imagesStarted) / 1000;
  const imagesMemory = imagesRss.stop();
  const { rows: received } = await db.query<{ bad: number }>(
    `SELECT count(*)::int AS bad FROM publishing.sandbox_posts p, jsonb_array_elements(p.content) part,
       jsonb_array_elements(part->'media') m
      WHERE p.marker = ANY($1::text[]) AND ((m->>'width')::int > 2000 OR (m->>'height')::int > 2000 OR (m->>'size')::int > 1000000
        OR (m->>'exif')::boolean)`,
    [renditions],
  );
  const { rows: counted } = await db.query<{ images: number }>(
    `SELECT count(*)::int AS images FROM publishing.sandbox_posts p, jsonb_array_elements(p.content) part,
       jsonb_array_elements(part->'media') m WHERE p.marker = ANY($1::text[])`,
    [renditions],
  );
  const imagesDelivered =
    imagesOutcome.published === POSTS_MEDIA_PUBLICATIONS &&
    received[0].bad === 0 &&
    counted[0].images === POSTS_MEDIA_PUBLICATIONS * IMAGES_PER_POST;
  const renditionsPerS = imagesOutcome.published / Math.max(0.001, imagesSeconds);
  console.log(
    `  images: ${imagesOutcome.published}/${POSTS_MEDIA_PUBLICATIONS} published (${imagesOutcome.failed} failed) ` +
      `in ${imagesSeconds.toFixed(1)} s = ${renditionsPerS.toFixed(2)} renditions/s; ` +
      `${counted[0].images} images received, ${received[0].bad} over the limits or with EXIF; ` +
      `publishing RSS ${imagesMemory.before.toFixed(0)} → peak ${imagesMemory.peak.toFixed(0)} MiB`,
  );

  const figures: PostsMediaFigures = {
    publications: POSTS_MEDIA_PUBLICATIONS,
    images: counted[0].images,
    imagesSeconds,
    renditionsPerS,
    imagesRssBeforeMiB: imagesMemory.before,
    imagesRssPeakMiB: imagesMemory.peak,
    imagesRssGrowthMiB: imagesMemory.peak - imagesMemory.before,
    imagesRssMet: imagesMemory.peak - imagesMemory.before < IMAGES_RSS_TARGET_MIB,
    imagesDelivered,
    videoMiB: POSTS_MEDIA_VIDEO_MIB,
    videoSeconds: 0,
    videoRssBeforeMiB: 0,
    videoRssPeakMiB: 0,
    videoRssGrowthMiB: 0,
    videoRssMet: false,
    videoDelivered: false,
    met: false,
  };
  if (POSTS_MEDIA_VIDEO_MIB <= 0) {
    figures.met = figures.imagesRssMet && figures.imagesDelivered;
    console.log(
      `  ${figures.imagesRssMet ? 'MET    ' : 'NOT MET'} images: ` +
        `RSS growth ${figures.imagesRssGrowthMiB.toFixed(0)} MiB < ${IMAGES_RSS_TARGET_MIB}; ` +
        'video skipped (BENCH_POSTS_MEDIA_VIDEO_MIB=0)',
    );
    return figures;
  }

  // Video: 500 MiB streamed from storage to the fake Mastodon server.
  const videoBytes = POSTS_MEDIA_VIDEO_MIB * MIB;
  await fetch(`${mastodon.controlUrl}/limits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ video_bytes: videoBytes + MIB }),
  });
  const mastodonAccountId = await mastodonAccount(db, mastodon, secretsKey, workspace.id, userId);
  console.log(`  uploading the ${POSTS_MEDIA_VIDEO_MIB} MiB video to the library …`);
  const videoId = await upload(baseUrl, token, workspace.id, 'bench.mp4', videoBytes, () => mp4Stream(videoBytes));
  const { renditionId: videoRendition } = await scheduledRendition(baseUrl, token, workspace.id, mastodonAccountId, 'Bench video', [
    videoId,
  ]);
  const videoRss = sampleRss(publishingPid);
  const videoStarted = Date.now();
  await release(db, [videoRendition]);
  const videoOutcome = await waitPublished(db, [videoRendition], 1_800_000);
  const videoSeconds = (Date.now() - videoStarted) / 1000;
  const videoMemory = videoRss.stop();
  const media = (await (await fetch(`${mastodon.controlUrl}/media`)).json()) as FakeMastodonMedia[];
  const [{ sha256: storedSha }] = (await db.query<{ sha256: string }>(`SELECT sha256 FROM media.media_items WHERE id = $1`, [videoId]))
    .rows;
  const videoDelivered =
    videoOutcome.published === 1 &&
    media.some((item) => item.type === 'video' && item.size === videoBytes && item.sha256 === storedSha && item.status_id !== '');
  console.log(
    `  video: ${videoOutcome.published ? 'published' : 'NOT published'} in ` +
      `${videoSeconds.toFixed(1)} s (${(POSTS_MEDIA_VIDEO_MIB / videoSeconds).toFixed(1)} MiB/s), ` +
      `received whole: ${videoDelivered}; publishing RSS ${videoMemory.before.toFixed(0)} → peak ${videoMemory.peak.toFixed(0)} MiB`,
  );
  Object.assign(figures, {
    videoSeconds,
    videoRssBeforeMiB: videoMemory.before,
    videoRssPeakMiB: videoMemory.peak,
    videoRssGrowthMiB: videoMemory.peak - videoMemory.before,
    videoRssMet: videoMemory.peak - videoMemory.before < VIDEO_RSS_TARGET_MIB,
    videoDelivered,
  });
  figures.met = figures.imagesRssMet && figures.imagesDelivered && figures.videoRssMet && figures.videoDelivered;
  console.log(
    `  ${figures.imagesRssMet ? 'MET    ' : 'NOT MET'} images: ` +
      `RSS growth ${figures.imagesRssGrowthMiB.toFixed(0)} MiB < ${IMAGES_RSS_TARGET_MIB}; ` +
      `${figures.videoRssMet ? 'MET    ' : 'NOT MET'} video: ` +
      `RSS growth ${figures.videoRssGrowthMiB.toFixed(0)} MiB < ${VIDEO_RSS_TARGET_MIB} (app logs: ${logFile})`,
  );
  return figures;
}
