import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { callControl, type FakeTikTok, type FakeTikTokPost, type FakeTikTokTask, startFakeTikTok } from '@social/testing';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderHttp } from '../provider-http.js';
import { DeliveryError, type OutgoingMedia, type OutgoingPost, type ProviderAccount } from '../social-provider.js';
import { chunkPlan, TIKTOK_CHUNK_BYTES } from './tiktok-chunks.js';
import { TikTokNetwork } from './tiktok.network.js';
import { TikTokProvider } from './tiktok.provider.js';

const MIB = 1024 * 1024;
let fake: FakeTikTok;
let provider: TikTokProvider;
const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);

/** A video whose bytes are `bytes`, recording every range read: `open` serves only the range asked, as storage does. */
function video(bytes: Buffer, durationMs = 3_000): OutgoingMedia & { reads: Array<{ start: number; end: number } | undefined> } {
  const reads: Array<{ start: number; end: number } | undefined> = [];
  return {
    mediaId: randomUUID(),
    kind: 'video',
    mimeType: 'video/mp4',
    altText: '',
    size: bytes.length,
    width: 1080,
    height: 1920,
    durationMs,
    reads,
    open: async (range) => {
      reads.push(range);
      const slice = range ? bytes.subarray(range.start, range.end + 1) : bytes;
      // Served in 1 MiB pieces, as a storage stream is.
      return Readable.from(Array.from({ length: Math.ceil(slice.length / MIB) }, (_, i) => slice.subarray(i * MIB, (i + 1) * MIB)));
    },
    publicUrl: async () => 'https://media.invalid/video.mp4',
  };
}
const photo = () => outgoingMedia(randomBytes(64), 'image/jpeg', '', { width: 64, height: 48 });
const post = (media: OutgoingMedia[], settings: Record<string, unknown> = {}, text = `Caption ${randomUUID()}`): OutgoingPost => ({
  marker: randomUUID(),
  parts: [outgoingPart(text, { media })],
  settings,
});

async function connect(extra: Record<string, unknown> = {}): Promise<ProviderAccount> {
  const accessToken = `act.${randomUUID()}`;
  const created = await control('POST', '/accounts', { access_token: accessToken, username: 'ada', ...extra });
  const refreshToken = typeof extra.refresh_token === 'string' ? extra.refresh_token : undefined;
  return {
    id: randomUUID(),
    platform: 'tiktok',
    externalId: created.open_id,
    username: 'ada',
    instanceUrl: '',
    grant: { accessToken, ...(refreshToken ? { refreshToken } : {}) },
  };
}

async function failureOf(call: Promise<unknown>): Promise<DeliveryError['failure']> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return (error as DeliveryError).failure;
}

const initRequests = async () =>
  ((await control('GET', '/requests')) as Array<{ path: string; body: any }>).filter((request) => request.path.endsWith('/init/'));

beforeAll(async () => {
  fake = await startFakeTikTok();
  provider = new TikTokProvider(new TikTokNetwork(), new ProviderHttp({ tiktok: fake.origin }), 5_000, {
    firstWaitMs: 5,
    maxWaitMs: 20,
    limitMs: 3_000,
  });
});
afterAll(() => fake.stop());
beforeEach(() => control('DELETE', '/state'));

describe('TikTok chunk plan (Media Transfer Guide)', () => {
  it('sends a video under one chunk whole, and a larger one in floor(size / chunk) chunks whose last takes the trailing bytes', () => {
    expect(chunkPlan(3 * MIB)).toEqual({ chunkSize: 3 * MIB, totalChunkCount: 1, chunks: [{ start: 0, end: 3 * MIB - 1 }] });
    const size = 3 * TIKTOK_CHUNK_BYTES + 123;
    const plan = chunkPlan(size);
    expect(plan.chunkSize).toBe(TIKTOK_CHUNK_BYTES);
    expect(plan.totalChunkCount).toBe(3);
    expect(plan.chunks.at(-1)).toEqual({ start: 2 * TIKTOK_CHUNK_BYTES, end: size - 1 });
    plan.chunks.slice(1).forEach((chunk, index) => expect(chunk.start).toBe(plan.chunks[index].end + 1));
    // 4 GB in at most 1000 chunks, none over 64 MB.
    const large = chunkPlan(4 * 1024 * MIB);
    expect(large.totalChunkCount).toBeLessThanOrEqual(1000);
    expect(large.chunkSize).toBeLessThanOrEqual(64 * 1000 * 1000);
  });
});

describe('TikTok delivery against the fake TikTok', () => {
  it('posts a video in chunks streamed from one storage read, with the privacy asked, and answers the public post id exactly', async () => {
    const account = await connect();
    const bytes = randomBytes(2 * TIKTOK_CHUNK_BYTES + 5 * MIB);
    const media = video(bytes);
    const sent = post([media], { privacy_level: 'FOLLOWER_OF_CREATOR', disable_duet: true, is_aigc: true });
    const published = await provider.publish(account, sent);

    const [task] = (await control('GET', '/tasks')) as FakeTikTokTask[];
    expect(task.chunks.map((chunk) => chunk.range)).toEqual([
      `bytes 0-${TIKTOK_CHUNK_BYTES - 1}/${bytes.length}`,
      `bytes ${TIKTOK_CHUNK_BYTES}-${bytes.length - 1}/${bytes.length}`,
    ]);
    expect(task.video_sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    // One storage read runs on from chunk to chunk (ChunkedReader), never the whole video held.
    expect(media.reads).toEqual([{ start: 0, end: bytes.length - 1 }]);
    expect(task.post_info).toMatchObject({
      title: sent.parts[0].text,
      privacy_level: 'FOLLOWER_OF_CREATOR',
      disable_duet: true,
      disable_comment: false,
      disable_stitch: false,
      is_aigc: true,
      brand_content_toggle: false,
    });
    expect(task.source_info).toEqual({
      source: 'FILE_UPLOAD',
      video_size: bytes.length,
      chunk_size: TIKTOK_CHUNK_BYTES,
      total_chunk_count: 2,
    });
    const [made] = (await control('GET', '/posts')) as FakeTikTokPost[];
    // An int64 beyond 2^53, answered as a JSON number: kept digit for digit.
    expect(BigInt(made.id)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    expect(published).toEqual({
      externalId: made.id,
      externalUrl: `https://www.tiktok.com/@ada/video/${made.id}`,
      parts: [{ externalId: made.id, externalUrl: `https://www.tiktok.com/@ada/video/${made.id}` }],
    });
  });

  it('defaults to PUBLIC_TO_EVERYONE when allowed, else to the first level listed; keeps comments off when the creator did', async () => {
    const open = await connect();
    await provider.publish(open, post([photo()]));
    const closed = await connect({ privacy_level_options: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'], comment_disabled: true });
    await provider.publish(closed, post([photo()]));
    const tasks = (await control('GET', '/tasks')) as FakeTikTokTask[];
    expect(tasks.map((task) => task.post_info.privacy_level)).toEqual(['PUBLIC_TO_EVERYONE', 'FOLLOWER_OF_CREATOR']);
    expect(tasks.map((task) => task.post_info.disable_comment)).toEqual([false, true]);
  });

  it('refuses a privacy level the creator may not use, naming the allowed ones, before any init', async () => {
    const account = await connect({ privacy_level_options: ['SELF_ONLY'] });
    const failure = await failureOf(provider.publish(account, post([photo()], { privacy_level: 'PUBLIC_TO_EVERYONE' })));
    expect(failure).toMatchObject({ outcome: 'rejected', kind: 'validation', code: 'privacy_level_option_mismatch' });
    expect(failure.message).toContain('SELF_ONLY');
    expect(await initRequests()).toEqual([]);
  });

  it("refuses a video longer than the creator's longest before any init", async () => {
    const account = await connect({ max_video_post_duration_sec: 60 });
    const failure = await failureOf(provider.publish(account, post([video(randomBytes(1024), 61_000)])));
    expect(failure).toMatchObject({ outcome: 'rejected', kind: 'validation', code: 'video_too_long' });
    expect(await initRequests()).toEqual([]);
  });

  it('posts photos by their public URLs (PULL_FROM_URL, DIRECT_POST), the title apart from the description', async () => {
    const account = await connect();
    const media = [photo(), photo()];
    const sent: OutgoingPost = {
      marker: randomUUID(),
      parts: [outgoingPart('A walk in the hills', { title: 'Hills', media })],
      settings: { photo_cover_index: 1 },
    };
    const published = await provider.publish(account, sent);
    const [init] = await initRequests();
    expect(init.path).toBe('/v2/post/publish/content/init/');
    expect(init.body).toMatchObject({
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: { title: 'Hills', description: 'A walk in the hills', privacy_level: 'PUBLIC_TO_EVERYONE' },
      source_info: {
        source: 'PULL_FROM_URL',
        photo_cover_index: 1,
        photo_images: ['https://media.invalid/not-served', 'https://media.invalid/not-served'],
      },
    });
    const [made] = (await control('GET', '/posts')) as FakeTikTokPost[];
    expect(made.media_count).toBe(2);
    expect(published.externalUrl).toBe(`https://www.tiktok.com/@ada/photo/${made.id}`);
  });

  it('answers the publish id when TikTok gives no public id (a post only its creator sees)', async () => {
    const account = await connect();
    const published = await provider.publish(account, post([photo()], { privacy_level: 'SELF_ONLY' }));
    const [task] = (await control('GET', '/tasks')) as FakeTikTokTask[];
    expect(published).toMatchObject({ externalId: task.publish_id, externalUrl: '' });
  });

  it.each([
    ['file_format_check_failed', { outcome: 'rejected', kind: 'validation', code: 'file_format_check_failed' }],
    ['internal', { outcome: 'retryable', code: 'provider_error' }],
    ['spam_risk_text', { outcome: 'rejected', kind: 'policy', code: 'spam_risk_text' }],
  ])('maps a FAILED status whose fail_reason is %s', async (reason, expected) => {
    const account = await connect();
    await control('POST', '/processing', { polls: 1, fail_next: reason });
    expect(await failureOf(provider.publish(account, post([video(randomBytes(2048))])))).toMatchObject(expected);
  });

  it.each([
    [403, 'spam_risk_too_many_posts', { outcome: 'retryable', code: 'provider_rate_limited', retryAfterMs: 3_600_000 }],
    [403, 'unaudited_client_can_only_post_to_private_accounts', { outcome: 'rejected', kind: 'policy' }],
    [403, 'url_ownership_unverified', { outcome: 'rejected', kind: 'validation', code: 'url_ownership_unverified' }],
    [403, 'privacy_level_option_mismatch', { outcome: 'rejected', kind: 'validation' }],
    [401, 'scope_not_authorized', { outcome: 'rejected', kind: 'auth' }],
    [429, 'rate_limit_exceeded', { outcome: 'retryable', code: 'provider_rate_limited', retryAfterMs: 60_000 }],
    [200, 'internal_error', { outcome: 'rejected', kind: 'validation' }],
  ])('maps an init answered %s %s by its documented code', async (status, code, expected) => {
    const account = await connect();
    const body = { data: {}, error: { code, message: 'scripted', log_id: '2026' } };
    await control('POST', '/failures', { path: '/v2/post/publish/video/init/', method: 'POST', status, body });
    expect(await failureOf(provider.publish(account, post([video(randomBytes(2048))])))).toMatchObject(expected);
    expect((await control('GET', '/posts')) as unknown[]).toEqual([]);
  });

  it("the daily cap the fake enforces reads as TikTok's spam_risk_too_many_posts", async () => {
    const account = await connect({ daily_post_cap: 1 });
    await provider.publish(account, post([photo()]));
    expect(await failureOf(provider.publish(account, post([photo()])))).toMatchObject({
      outcome: 'retryable',
      code: 'provider_rate_limited',
    });
  });

  it('leaves a lost answer to the last chunk ambiguous, and a failed earlier chunk retryable (a new init next time)', async () => {
    const account = await connect();
    const bytes = randomBytes(2 * TIKTOK_CHUNK_BYTES + 10);
    // The first of two chunks refused with a 500: nothing can be posted from that init.
    await control('POST', '/failures', {
      path: '/upload',
      method: 'PUT',
      status: 500,
      body: { data: {}, error: { code: 'internal_error' } },
    });
    expect(await failureOf(provider.publish(account, post([video(bytes)])))).toMatchObject({ outcome: 'retryable' });
    // A video of one chunk: that chunk is the last, taken by TikTok, its answer lost.
    await control('POST', '/failures', { path: '/upload', method: 'PUT', drop_after_handling: true });
    expect(await failureOf(provider.publish(account, post([video(randomBytes(2048))])))).toMatchObject({ outcome: 'ambiguous' });
    const [failed, lost] = (await control('GET', '/tasks')) as FakeTikTokTask[];
    expect(failed.chunks).toEqual([]);
    expect(lost.chunks).toHaveLength(1);
  });

  it('renews an expired access token once through the refresh grant (rotating the refresh token) and repeats the call', async () => {
    const account = await connect({ refresh_token: 'rft.first' });
    await control('POST', `/accounts/${account.externalId}/expire-token`);
    const client = { clientId: 'tt-key', clientSecret: 'tt-secret', instanceUrl: '' };
    const renewals: string[] = [];
    account.renewGrant = async () => {
      const renewed = await provider.refreshGrant(client, account.grant!, AbortSignal.timeout(2_000));
      renewals.push(renewed.refreshToken ?? '');
      account.grant = renewed;
      return renewed;
    };
    await provider.publish(account, post([photo()]));
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatch(/^rft\./);
    expect(renewals[0]).not.toBe('rft.first');
    expect(account.grant?.expiresAt).toBeDefined();
  });

  it('finds a post whose answer was lost by its caption, and answers unknown (never null) when it is not listed', async () => {
    const account = await connect();
    const since = new Date();
    const lost = post([photo()]);
    await control('POST', '/failures', { path: '/v2/post/publish/content/init/', method: 'POST', drop_after_handling: true });
    expect((await failureOf(provider.publish(account, lost))).outcome).toBe('ambiguous');
    const found = await provider.findPost(account, lost, since);
    const [made] = (await control('GET', '/posts')) as FakeTikTokPost[];
    expect(found).toMatchObject({ externalId: made.id, externalUrl: `https://www.tiktok.com/@ada/photo/${made.id}` });
    expect(await provider.findPost(account, { ...lost, ownedElsewhere: [made.id] }, since)).toBe('unknown');
    expect(await provider.findPost(account, post([photo()]), since)).toBe('unknown');
  });

  it("finds a titled video whose last chunk's answer was lost, from reconciliation's media stand-ins", async () => {
    const account = await connect();
    const since = new Date();
    const sent: OutgoingPost = {
      marker: randomUUID(),
      parts: [outgoingPart(`Body ${randomUUID()}`, { title: 'Release notes', media: [video(randomBytes(4096))] })],
    };
    await control('POST', '/failures', { path: '/upload', method: 'PUT', drop_after_handling: true });
    expect((await failureOf(provider.publish(account, sent))).outcome).toBe('ambiguous');
    // The engine reconciles with stand-ins that say nothing of the media's kind (delivery-media.ts countedMedia).
    const standIns = { ...sent, parts: [{ ...sent.parts[0], media: [photo()] }] };
    const found = await provider.findPost(account, standIns, since);
    const [made] = (await control('GET', '/posts')) as FakeTikTokPost[];
    expect(made.title).toBe(`Release notes\n\n${sent.parts[0].text}`);
    expect(found).toMatchObject({ externalId: made.id, externalUrl: `https://www.tiktok.com/@ada/video/${made.id}` });
  });

  it('refuses a text alone, mixed media and more than 35 photos without calling TikTok', async () => {
    const account = await connect();
    for (const media of [[], [photo(), video(randomBytes(10))], Array.from({ length: 36 }, photo)]) {
      expect(await failureOf(provider.publish(account, post(media)))).toMatchObject({ outcome: 'rejected', kind: 'validation' });
    }
    expect((await control('GET', '/requests')) as unknown[]).toEqual([]);
  });
});
