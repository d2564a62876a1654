import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  callControl,
  googleError,
  startFakeYouTube,
  type FakeYouTube,
  type FakeYouTubeSession,
  type FakeYouTubeVideo,
} from '@social/testing';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderHttp } from '../provider-http.js';
import { DeliveryError, type OutgoingMedia, type OutgoingPost, type ProviderAccount } from '../social-provider.js';
import { nextQuotaReset } from './youtube-failure.js';
import { YouTubeNetwork } from './youtube.network.js';
import { YouTubeProvider } from './youtube.provider.js';

const KIB = 1024;
const UPLOAD_PATH = '/upload/youtube/v3/videos';
const client = { clientId: 'yt', clientSecret: 'secret', instanceUrl: '' };

let fake: FakeYouTube;
let provider: YouTubeProvider;
let account: ProviderAccount;
const token = `tok-${randomUUID()}`;
const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);

/** A video of `size` random bytes (the fake never decodes it), opened by range as storage does. */
function video(size: number, sides = { width: 1920, height: 1080 }, durationMs = 30_000): OutgoingMedia & { sha256: string } {
  const bytes = randomBytes(size);
  return {
    ...outgoingMedia(bytes, 'video/mp4', '', sides),
    durationMs,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

const post = (text: string, media: OutgoingMedia[], extra: Partial<OutgoingPost> = {}, title = ''): OutgoingPost => ({
  marker: randomUUID(),
  parts: [outgoingPart(text, { media, title })],
  ...extra,
});

async function failureOf(call: Promise<unknown>): Promise<DeliveryError['failure']> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return (error as DeliveryError).failure;
}

beforeAll(async () => {
  fake = await startFakeYouTube();
  provider = new YouTubeProvider(new YouTubeNetwork(), new ProviderHttp({ youtube: fake.origin }), 2_000, {
    upload: { chunkBytes: 512 * KIB, resumeAttempts: 3, backoffMs: 5 },
  });
  await control('POST', '/accounts', {
    access_token: token,
    channels: [
      { id: 'UCada000000000000000000', title: 'Ada Builds', handle: '@adabuilds', subscribers: 1200 },
      { id: 'UCbrand00000000000000000', title: 'Ada Brand' },
    ],
  });
  const [identity] = await provider.fetchIdentities(client, { accessToken: token }, AbortSignal.timeout(2_000));
  account = {
    id: randomUUID(),
    platform: 'youtube',
    externalId: identity.externalId,
    username: identity.username,
    instanceUrl: '',
    grant: { accessToken: token },
  };
});

beforeEach(async () => {
  await control('DELETE', '/failures');
});

afterAll(async () => {
  await fake?.stop();
});

describe('YouTube connect', () => {
  it('connects every channel of the Google account, handle as username (else title), across pages', async () => {
    const many = `tok-${randomUUID()}`;
    const channels = Array.from({ length: 53 }, (_, index) => ({
      title: `Channel ${index}`,
      ...(index === 0 ? { handle: '@first' } : {}),
    }));
    await control('POST', '/accounts', { access_token: many, channels });
    const identities = await provider.fetchIdentities(client, { accessToken: many }, AbortSignal.timeout(2_000));
    expect(identities).toHaveLength(53);
    expect(identities[0]).toMatchObject({ username: '@first', displayName: 'Channel 0' });
    expect(identities[0].avatarUrl).toMatch(/=s800$/);
    expect(identities[52]).toMatchObject({ username: 'Channel 52', displayName: 'Channel 52' });
    expect(new Set(identities.map((identity) => identity.externalId)).size).toBe(53);
  });

  it('refuses a Google account without a channel as no_account', async () => {
    const none = `tok-${randomUUID()}`;
    await control('POST', '/accounts', { access_token: none, channels: [] });
    await expect(provider.fetchIdentities(client, { accessToken: none }, AbortSignal.timeout(2_000))).rejects.toMatchObject({
      failure: 'no_account',
    });
  });
});

describe('YouTube publishing', () => {
  it('uploads a video in chunks with its title, description, tags, privacy, made-for-kids and category', async () => {
    const media = video(1_300 * KIB);
    const published = await provider.publish(
      account,
      post('First line of the text\nsecond line <b>', [media], {
        settings: { tags: ['builds', 'open source', '  builds  '], privacy_status: 'unlisted', made_for_kids: true, category_id: '28' },
      }),
    );
    const videos = (await control('GET', '/videos')) as FakeYouTubeVideo[];
    const made = videos.find((candidate) => candidate.id === published.externalId)!;
    expect(made).toMatchObject({
      channel_id: account.externalId,
      title: 'First line of the text',
      description: 'First line of the text\nsecond line \u2039b\u203a',
      tags: ['builds', 'open source'],
      privacy_status: 'unlisted',
      made_for_kids: true,
      category_id: '28',
      size: media.size,
      sha256: media.sha256,
    });
    expect(published.externalUrl).toBe(`https://www.youtube.com/watch?v=${published.externalId}`);
    const session = ((await control('GET', '/sessions')) as FakeYouTubeSession[]).find((candidate) => candidate.video_id === made.id)!;
    expect(session.chunks).toBe(3);
  });

  it('uses the part title when there is one, bounded to 100 characters, and links a Short under /shorts/', async () => {
    const published = await provider.publish(
      account,
      post('The text', [video(100 * KIB, { width: 1080, height: 1920 }, 59_000)], {}, 'T'.repeat(140)),
    );
    const made = ((await control('GET', '/videos')) as FakeYouTubeVideo[]).at(-1)!;
    expect(Array.from(made.title)).toHaveLength(100);
    expect(made.title.endsWith('\u2026')).toBe(true);
    expect(made.privacy_status).toBe('public');
    expect(made.made_for_kids).toBe(false);
    expect(published.externalUrl).toBe(`https://www.youtube.com/shorts/${published.externalId}`);
  });

  it('resumes an upload interrupted halfway in the same session: one video, the same bytes', async () => {
    const media = video(2_100 * KIB);
    await control('POST', '/interruptions', { at_offset: 1_400 * KIB });
    const before = ((await control('GET', '/videos')) as FakeYouTubeVideo[]).length;
    const published = await provider.publish(account, post('Interrupted halfway', [media]));
    const videos = (await control('GET', '/videos')) as FakeYouTubeVideo[];
    expect(videos).toHaveLength(before + 1);
    expect(videos.at(-1)).toMatchObject({ id: published.externalId, size: media.size, sha256: media.sha256 });
    const session = ((await control('GET', '/sessions')) as FakeYouTubeSession[]).find(
      (candidate) => candidate.video_id === published.externalId,
    )!;
    // Chunks 0-512K and 512K-1M went through; the third was cut at 1,400 KiB and kept up to 1,280 KiB (whole 256 KiB
    // units); the status query said so, and the upload went on from there in two more chunks.
    expect(session).toMatchObject({ interruptions: 1, status_queries: 1, chunks: 5 });
  });

  it('resumes after a chunk answered 503, from where the server says it stopped', async () => {
    const media = video(1_200 * KIB);
    await control('POST', '/failures', {
      path: UPLOAD_PATH,
      method: 'PUT',
      status: 503,
      body: googleError(503, 'backendError', 'Backend Error', 'global'),
    });
    const published = await provider.publish(account, post('After a 503', [media]));
    expect(((await control('GET', '/videos')) as FakeYouTubeVideo[]).at(-1)).toMatchObject({
      id: published.externalId,
      sha256: media.sha256,
    });
  });

  it('finds the video when the answer to the last byte is lost, through the status query', async () => {
    const media = video(300 * KIB);
    await control('POST', '/failures', { path: UPLOAD_PATH, method: 'PUT', drop_after_handling: true });
    const before = ((await control('GET', '/videos')) as FakeYouTubeVideo[]).length;
    const published = await provider.publish(account, post('Lost last answer', [media]));
    const videos = (await control('GET', '/videos')) as FakeYouTubeVideo[];
    expect(videos).toHaveLength(before + 1);
    expect(videos.at(-1)!.id).toBe(published.externalId);
  });

  it('gives up retryably (nothing made) when the session is gone before the last byte', async () => {
    const media = video(1_100 * KIB);
    await control('POST', '/failures', {
      path: UPLOAD_PATH,
      method: 'PUT',
      status: 404,
      body: googleError(404, 'notFound', 'Not Found', 'global'),
    });
    const before = ((await control('GET', '/videos')) as FakeYouTubeVideo[]).length;
    expect(await failureOf(provider.publish(account, post('Gone session', [media])))).toMatchObject({
      outcome: 'retryable',
      code: 'upload_session_expired',
    });
    expect((await control('GET', '/videos')) as FakeYouTubeVideo[]).toHaveLength(before);
  });

  it('gives up retryably after bounded attempts when chunks keep breaking before the last byte', async () => {
    await control('POST', '/failures', { path: UPLOAD_PATH, method: 'PUT', drop: true, times: 10 });
    const failure = await failureOf(provider.publish(account, post('Always dropped', [video(700 * KIB)])));
    expect(failure.outcome).toBe('retryable');
    await control('DELETE', '/failures');
  });

  it('treats a spent daily quota as a rate limit until midnight Pacific Time', async () => {
    await control('POST', '/failures', {
      path: UPLOAD_PATH,
      method: 'POST',
      status: 403,
      body: googleError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.'),
    });
    const startedAt = Date.now();
    const failure = await failureOf(provider.publish(account, post('Over quota', [video(10 * KIB)])));
    expect(failure).toMatchObject({ outcome: 'retryable', code: 'provider_rate_limited', httpStatus: 429 });
    const wait = failure.outcome === 'retryable' ? (failure.retryAfterMs ?? 0) : 0;
    expect(Math.abs(startedAt + wait - nextQuotaReset(startedAt))).toBeLessThan(5_000);
  });

  it('rejects upload limits and invalid metadata as validation, and a refused grant as auth', async () => {
    await control('POST', '/failures', {
      path: UPLOAD_PATH,
      method: 'POST',
      status: 400,
      body: googleError(400, 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.'),
    });
    expect(await failureOf(provider.publish(account, post('Too many', [video(10 * KIB)])))).toMatchObject({
      outcome: 'rejected',
      kind: 'validation',
    });
    await control('POST', '/failures', {
      path: UPLOAD_PATH,
      method: 'POST',
      status: 403,
      body: googleError(403, 'forbiddenPrivacySetting', 'The video specifies an invalid privacy setting.'),
    });
    expect(await failureOf(provider.publish(account, post('Privacy', [video(10 * KIB)])))).toMatchObject({ kind: 'validation' });
    await control('POST', '/failures', {
      path: UPLOAD_PATH,
      method: 'POST',
      status: 401,
      body: googleError(401, 'authError', 'Invalid Credentials', 'global'),
    });
    expect(await failureOf(provider.publish(account, post('Auth', [video(10 * KIB)])))).toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
    });
  });

  it('refuses without a call what YouTube cannot take: no video, an image, bad settings', async () => {
    const before = ((await control('GET', '/sessions')) as FakeYouTubeSession[]).length;
    const image = outgoingMedia(Buffer.from('png'), 'image/png');
    for (const refused of [
      post('Text alone', []),
      post('An image', [image]),
      post('Bad privacy', [video(KIB)], { settings: { privacy_status: 'friends' } }),
      post('Bad tags', [video(KIB)], { settings: { tags: 'one,two' } }),
    ]) {
      expect(await failureOf(provider.publish(account, refused))).toMatchObject({ outcome: 'rejected', kind: 'validation' });
    }
    expect((await control('GET', '/sessions')) as FakeYouTubeSession[]).toHaveLength(before);
  });
});

describe('YouTube reconciliation', () => {
  it('finds a video whose every answer was lost among the uploads, not another with the same text owned elsewhere', async () => {
    const since = new Date();
    const lost = post('Reconciled video', [video(20 * KIB)]);
    await control('POST', '/failures', { path: UPLOAD_PATH, method: 'PUT', drop_after_handling: true, times: 4 });
    expect((await failureOf(provider.publish(account, lost))).outcome).toBe('ambiguous');
    const made = ((await control('GET', '/videos')) as FakeYouTubeVideo[]).at(-1)!;
    expect(await provider.findPost(account, lost, since)).toMatchObject({ externalId: made.id });
    expect(await provider.findPost(account, { ...lost, ownedElsewhere: [made.id] }, since)).toBeNull();
  });
});

describe('nextQuotaReset', () => {
  it('is the next midnight in Los Angeles, in summer (PDT) and winter (PST), and across the DST change', () => {
    expect(new Date(nextQuotaReset(Date.parse('2026-07-01T12:00:00Z'))).toISOString()).toBe('2026-07-02T07:00:00.000Z');
    expect(new Date(nextQuotaReset(Date.parse('2026-01-15T07:59:00Z'))).toISOString()).toBe('2026-01-15T08:00:00.000Z');
    expect(new Date(nextQuotaReset(Date.parse('2026-01-15T08:00:00Z'))).toISOString()).toBe('2026-01-16T08:00:00.000Z');
    // 7 March 2026 (PST) → midnight of 8 March is still PST; the clocks spring forward at 02:00 that day.
    expect(new Date(nextQuotaReset(Date.parse('2026-03-07T20:00:00Z'))).toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(new Date(nextQuotaReset(Date.parse('2026-03-08T12:00:00Z'))).toISOString()).toBe('2026-03-09T07:00:00.000Z');
    // 1 November 2026: midnight of 1 November is PDT, of 2 November PST.
    expect(new Date(nextQuotaReset(Date.parse('2026-10-31T20:00:00Z'))).toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(new Date(nextQuotaReset(Date.parse('2026-11-01T12:00:00Z'))).toISOString()).toBe('2026-11-02T08:00:00.000Z');
  });
});
