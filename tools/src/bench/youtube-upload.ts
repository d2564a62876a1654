/**
 * A 1 GiB video (BENCH_YOUTUBE_VIDEO_MIB) delivered to the fake YouTube Data API through the real platform (issue 27):
 * the resumable upload in 16 MiB chunks, each read from the media storage by range as it is sent. Measured: the
 * publishing service's RSS growth during the delivery (target < 64 MiB: streamed, never buffered) and the delivery's
 * throughput against reading the same object from storage directly in the same run (target ≥ 0.7).
 *
 * Like posts-media, it runs a platform of its own (private nats-server, temporary database, the built apps) with
 * PROVIDER_API_ORIGINS sending youtube's calls to the fake.
 */
import { startFakeYouTube, type FakeYouTube, type FakeYouTubeSession, type FakeYouTubeVideo } from '@social/testing';
import { connectNats, NatsObjectStorage, SecretBox } from '@social/platform';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { type BenchPlatform, withBenchPlatform } from './private-platform.js';
import { mp4Stream, release, sampleRss, scheduledRendition, upload, waitPublished } from './posts-media.js';

const MIB = 1024 * 1024;
export const YOUTUBE_VIDEO_MIB = Number(process.env.BENCH_YOUTUBE_VIDEO_MIB ?? 1024);
export const YOUTUBE_RSS_TARGET_MIB = 64;
export const YOUTUBE_THROUGHPUT_TARGET = 0.7;
/** Enough bytes for the publishing process to reach its steady state (heap spaces grown, pools open) first. */
const WARM_UP_MIB = 128;

export interface YouTubeUploadFigures {
  videoMiB: number;
  deliverySeconds: number;
  deliveryMiBPerS: number;
  /** Session opened → video made, as the fake saw it. */
  uploadSeconds: number;
  storageReadSeconds: number;
  storageReadMiBPerS: number;
  throughputRatio: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  rssGrowthMiB: number;
  /** The cold process's growth during the warm-up delivery (not targeted; shown so the steady state is read as such). */
  warmUpRssGrowthMiB: number;
  /** One video at the fake, of the stored size and SHA-256. */
  delivered: boolean;
  met: boolean;
}

/** A YouTube channel of the fake, stored as a connection would store it (its grant sealed with the stack's key). */
async function youtubeAccount(db: pg.Client, fake: FakeYouTube, secretsKey: string, workspaceId: string, userId: string): Promise<string> {
  const accessToken = `ya29.bench-${randomBytes(12).toString('hex')}`;
  const { channels } = (await (
    await fetch(`${fake.controlUrl}/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: accessToken, channels: [{ title: 'Bench', handle: '@bench' }] }),
    })
  ).json()) as { channels: string[] };
  const id = uuidv7();
  const sealed = SecretBox.fromBase64Key(secretsKey).seal(JSON.stringify({ accessToken }), `social_accounts:${id}`);
  await db.query(
    `INSERT INTO publishing.social_accounts (id, workspace_id, platform, external_id, username, display_name, avatar_url, instance_url,
       status, credentials, connected_by, created_at, updated_at)
     VALUES ($1, $2, 'youtube', $3, '@bench', 'Bench', '', '', 'active', $4, $5, now(), now())`,
    [id, workspaceId, channels[0], sealed, userId],
  );
  return id;
}

/** Reads the whole object from the object store the platform uses (same client library): seconds taken. */
async function storageRead(natsUrl: string, key: string, expected: number): Promise<number> {
  const nc = await connectNats(natsUrl, 'bench-youtube-read');
  try {
    const storage = new NatsObjectStorage(nc);
    const started = process.hrtime.bigint();
    const stream = await storage.read(key);
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) size += chunk.length;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (size !== expected) throw new Error(`storage answered ${size} bytes of ${expected}`);
    return seconds;
  } finally {
    await nc.drain();
  }
}

export async function benchYouTubeUpload(): Promise<YouTubeUploadFigures> {
  console.log(
    `\nyoutube-upload: a ${YOUTUBE_VIDEO_MIB} MiB video → fake YouTube (resumable, 16 MiB chunks); targets: publishing RSS growth ` +
      `< ${YOUTUBE_RSS_TARGET_MIB} MiB, throughput ≥ ${YOUTUBE_THROUGHPUT_TARGET} of a direct storage read`,
  );
  const youtube = await startFakeYouTube();
  try {
    return await withBenchPlatform('youtube-upload', { providerOrigins: { youtube: youtube.origin } }, (platform) =>
      deliverToYouTube(platform, youtube),
    );
  } finally {
    await youtube.stop();
  }
}

async function deliverToYouTube(
  { baseUrl, natsUrl, db, secretsKey, token, userId, workspaceId, publishingPid, logFile }: BenchPlatform,
  youtube: FakeYouTube,
): Promise<YouTubeUploadFigures> {
  const workspace = { id: workspaceId };
  const accountId = await youtubeAccount(db, youtube, secretsKey, workspace.id, userId);
  const videoBytes = YOUTUBE_VIDEO_MIB * MIB;
  console.log(`  uploading the ${YOUTUBE_VIDEO_MIB} MiB video to the library …`);
  const videoId = await upload(baseUrl, token, workspace.id, 'bench.mp4', videoBytes, () => mp4Stream(videoBytes));
  const [{ sha256: storedSha, object_key: objectKey }] = (
    await db.query<{ sha256: string; object_key: string }>(`SELECT sha256, object_key FROM media.media_items WHERE id = $1`, [videoId])
  ).rows;
  // The same object read straight from storage, before the delivery (one warm read, so the first is not timed cold).
  await storageRead(natsUrl, objectKey, videoBytes);
  const storageReadSeconds = await storageRead(natsUrl, objectKey, videoBytes);
  // A first, small delivery warms the publishing process up (code paths, pools, connections), so the figures below
  // are the large video's own, as posts-media's video comes after its images.
  const warmBytes = WARM_UP_MIB * MIB;
  const warmId = await upload(baseUrl, token, workspace.id, 'warm-up.mp4', warmBytes, () => mp4Stream(warmBytes));
  const warm = await scheduledRendition(baseUrl, token, workspace.id, accountId, 'Warm-up video', [warmId]);
  const warmRss = sampleRss(publishingPid);
  await release(db, [warm.renditionId]);
  if ((await waitPublished(db, [warm.renditionId], 300_000)).published !== 1) throw new Error('the warm-up video was not delivered');
  const warmMemory = warmRss.stop();
  console.log(
    `  warm-up: a ${WARM_UP_MIB} MiB video delivered; ` +
      `publishing RSS ${warmMemory.before.toFixed(0)} → peak ${warmMemory.peak.toFixed(0)} MiB`,
  );
  const { renditionId } = await scheduledRendition(baseUrl, token, workspace.id, accountId, 'Bench video for YouTube', [videoId]);
  const rss = sampleRss(publishingPid);
  const started = Date.now();
  await release(db, [renditionId]);
  const outcome = await waitPublished(db, [renditionId], 1_800_000);
  const deliverySeconds = (Date.now() - started) / 1000;
  const memory = rss.stop();
  const videos = (await (await fetch(`${youtube.controlUrl}/videos`)).json()) as FakeYouTubeVideo[];
  const big = videos.filter((video) => video.title === 'Bench video for YouTube');
  const delivered = outcome.published === 1 && big.length === 1 && big[0].size === videoBytes && big[0].sha256 === storedSha;
  const deliveryMiBPerS = YOUTUBE_VIDEO_MIB / deliverySeconds;
  // The upload alone, as the fake saw it (session opened → video made): the rest is scheduling and preparation.
  const sessions = (await (await fetch(`${youtube.controlUrl}/sessions`)).json()) as FakeYouTubeSession[];
  const session = sessions.find((candidate) => big[0] && candidate.video_id === big[0].id);
  const uploadSeconds = session && big[0] ? (Date.parse(big[0].published_at) - Date.parse(session.created_at)) / 1000 : 0;
  const storageReadMiBPerS = YOUTUBE_VIDEO_MIB / storageReadSeconds;
  const throughputRatio = deliveryMiBPerS / storageReadMiBPerS;
  const figures: YouTubeUploadFigures = {
    videoMiB: YOUTUBE_VIDEO_MIB,
    deliverySeconds,
    deliveryMiBPerS,
    uploadSeconds,
    storageReadSeconds,
    storageReadMiBPerS,
    throughputRatio,
    rssBeforeMiB: memory.before,
    rssPeakMiB: memory.peak,
    rssGrowthMiB: memory.peak - memory.before,
    warmUpRssGrowthMiB: warmMemory.peak - warmMemory.before,
    delivered,
    met: false,
  };
  const rssMet = figures.rssGrowthMiB < YOUTUBE_RSS_TARGET_MIB;
  const throughputMet = throughputRatio >= YOUTUBE_THROUGHPUT_TARGET;
  figures.met = rssMet && throughputMet && delivered;
  console.log(
    `  delivered: ${delivered} in ${deliverySeconds.toFixed(1)} s (${deliveryMiBPerS.toFixed(1)} MiB/s; the upload itself ` +
      `${uploadSeconds.toFixed(1)} s); storage read ` +
      `${storageReadSeconds.toFixed(1)} s (${storageReadMiBPerS.toFixed(1)} MiB/s)\n` +
      `  ${rssMet ? 'MET    ' : 'NOT MET'} publishing RSS ${memory.before.toFixed(0)} → peak ${memory.peak.toFixed(0)} MiB ` +
      `(growth ${figures.rssGrowthMiB.toFixed(0)} < ${YOUTUBE_RSS_TARGET_MIB})\n` +
      `  ${throughputMet ? 'MET    ' : 'NOT MET'} throughput ${throughputRatio.toFixed(2)} of the storage read ` +
      `(≥ ${YOUTUBE_THROUGHPUT_TARGET}) (app logs: ${logFile})`,
  );
  return figures;
}
