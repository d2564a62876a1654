import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  callControl,
  FAKE_LINKEDIN_VIDEO_PART_BYTES,
  FakeLinkedIn,
  FakeLinkedInMedia,
  FakeLinkedInPost,
  startFakeLinkedIn,
} from '@social/testing';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderError } from '../provider-error.js';
import { ProviderHttp, type FetchFunction } from '../provider-http.js';
import { streamingFetch } from '../streaming-fetch.js';
import { DeliveryError, type OutgoingMedia, type OutgoingPost, type OutgoingPostPart, type ProviderAccount } from '../social-provider.js';
import { LinkedInNetwork } from './linkedin.network.js';
import { LINKEDIN_VERSION, LinkedInProvider, refusalOf, untilMidnightUtc } from './linkedin.provider.js';

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  json?: unknown;
}

/**
 * The LinkedIn adapter over real HTTP against the fake LinkedIn (libs/testing): the requests it sends, uploads,
 * renewal on 401, and how each documented failure becomes a DeliveryFailure; findPost's cases.
 */
describe('LinkedIn delivery (against a fake LinkedIn)', () => {
  let fake: FakeLinkedIn;
  let provider: LinkedInProvider;
  let account: ProviderAccount;
  let token: string;
  const sent: Sent[] = [];

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const posted = (): Promise<FakeLinkedInPost[]> => control('GET', '/posts');
  const post = (...parts: OutgoingPostPart[]): OutgoingPost => ({ marker: randomUUID(), parts });
  const png = (seed: number) =>
    sharp({ create: { width: 32, height: 24, channels: 3, background: { r: seed, g: 40, b: 90 } } })
      .png()
      .toBuffer();
  const failureOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DeliveryError);
    return (error as DeliveryError).failure;
  };
  /** Records what goes out (method, URL, headers, JSON bodies), then sends it. */
  const recording =
    (fetchFn: FetchFunction): FetchFunction =>
    async (input, init) => {
      const headers = Object.fromEntries(
        Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
      );
      const json = headers['content-type'] === 'application/json' ? JSON.parse(String(init?.body)) : undefined;
      sent.push({ method: String(init?.method), url: String(input), headers, json });
      return fetchFn(input, init);
    };
  const restCalls = () => sent.filter((call) => new URL(call.url).pathname.startsWith('/rest/'));

  beforeAll(async () => {
    fake = await startFakeLinkedIn();
    const http = new ProviderHttp({ linkedin: fake.origin }, undefined, recording(fetch), recording(streamingFetch));
    provider = new LinkedInProvider(new LinkedInNetwork(), http, 2_000);
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
    sent.length = 0;
    token = `tok-${randomUUID()}`;
    await control('POST', '/accounts', { access_token: token, person_id: 'p1erson', name: 'Ada Lovelace' });
    account = {
      id: randomUUID(),
      platform: 'linkedin',
      externalId: 'p1erson',
      username: 'Ada Lovelace',
      instanceUrl: '',
      grant: { accessToken: token },
    };
  });

  afterAll(async () => {
    await fake?.stop();
  });

  it('creates a text post as the member with the documented body and headers, answering the URN from x-restli-id', async () => {
    const published = await provider.publish(account, post(outgoingPart('Hello LinkedIn', { link: 'https://example.com/a' })));
    const [stored] = await posted();
    expect(published).toEqual({
      externalId: stored.id,
      externalUrl: `https://www.linkedin.com/feed/update/${stored.id}/`,
      parts: [{ externalId: stored.id, externalUrl: `https://www.linkedin.com/feed/update/${stored.id}/` }],
    });
    expect(stored.id).toMatch(/^urn:li:share:\d+$/);
    const [create] = restCalls();
    expect(create.method).toBe('POST');
    expect(new URL(create.url).pathname).toBe('/rest/posts');
    expect(create.headers).toMatchObject({
      authorization: `Bearer ${token}`,
      'linkedin-version': LINKEDIN_VERSION,
      'x-restli-protocol-version': '2.0.0',
      'content-type': 'application/json',
    });
    expect(create.json).toEqual({
      author: 'urn:li:person:p1erson',
      commentary: 'Hello LinkedIn\n\nhttps://example.com/a',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    });
  });

  it('pins one LinkedIn-Version of the YYYYMM form, which the fake refuses to go without, as LinkedIn does', async () => {
    expect(LINKEDIN_VERSION).toMatch(/^20\d{2}(0[1-9]|1[0-2])$/);
    const list = (headers: Record<string, string>) =>
      fetch(`${fake.origin}/rest/posts?author=urn%3Ali%3Aperson%3Ap1erson&q=author`, {
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
    const missing = await list({ 'x-restli-protocol-version': '2.0.0' });
    expect([missing.status, ((await missing.json()) as { code: string }).code]).toEqual([400, 'VERSION_MISSING']);
    const sunset = await list({ 'linkedin-version': '202401', 'x-restli-protocol-version': '2.0.0' });
    expect([sunset.status, ((await sunset.json()) as { code: string }).code]).toEqual([426, 'NONEXISTENT_VERSION']);
    expect((await list({ 'linkedin-version': LINKEDIN_VERSION })).status).toBe(400);
    expect((await list({ 'linkedin-version': LINKEDIN_VERSION, 'x-restli-protocol-version': '2.0.0' })).status).toBe(200);
  });

  it("escapes the little text format's reserved characters, so LinkedIn shows the text whole", async () => {
    const text = 'Launch (beta) [v2] {x|y} @ada #news *bold* _it_ ~s~ <b> C:\\temp — done';
    await provider.publish(account, post(outgoingPart(text)));
    const [stored] = await posted();
    expect(stored.text).toBe(text);
    expect(stored.commentary).toBe(
      'Launch \\(beta\\) \\[v2\\] \\{x\\|y\\} \\@ada \\#news \\*bold\\* \\_it\\_ \\~s\\~ \\<b\\> C:\\\\temp — done',
    );
  });

  it('uploads an image (initializeUpload, PUT, status until AVAILABLE), attaching it as content.media with its alt text', async () => {
    await control('POST', '/processing', { polls: 2 });
    const bytes = await png(200);
    await provider.publish(account, post(outgoingPart('One image', { media: [outgoingMedia(bytes, 'image/png', 'A red square')] })));
    const [image] = (await control('GET', '/media')) as FakeLinkedInMedia[];
    expect(image).toMatchObject({ kind: 'image', owner: 'urn:li:person:p1erson', received: bytes.length, status: 'AVAILABLE' });
    const initialize = restCalls().find((call) => call.url.includes('/rest/images?action=initializeUpload'))!;
    expect(initialize.json).toEqual({ initializeUploadRequest: { owner: 'urn:li:person:p1erson' } });
    const put = sent.find((call) => call.method === 'PUT')!;
    expect(put.headers).toMatchObject({ authorization: `Bearer ${token}`, 'content-type': 'image/png' });
    const polls = restCalls().filter((call) => call.method === 'GET' && new URL(call.url).pathname.startsWith('/rest/images/'));
    expect(polls).toHaveLength(3);
    expect(new URL(polls[0].url).pathname).toBe(`/rest/images/${encodeURIComponent(image.urn)}`);
    const create = restCalls().find((call) => call.url.endsWith('/rest/posts'))!;
    expect((create.json as { content: unknown }).content).toEqual({ media: { id: image.urn, altText: 'A red square' } });
  });

  it('attaches 2 to 20 images as content.multiImage, in order, each with its alt text', async () => {
    const images = await Promise.all([1, 2, 3].map(async (seed) => outgoingMedia(await png(seed * 50), 'image/png', `Image ${seed}`)));
    await provider.publish(account, post(outgoingPart('Three images', { media: images })));
    const urns = ((await control('GET', '/media')) as FakeLinkedInMedia[]).map((item) => item.urn);
    const create = restCalls().find((call) => call.url.endsWith('/rest/posts'))!;
    expect((create.json as { content: unknown }).content).toEqual({
      multiImage: { images: urns.map((id, index) => ({ id, altText: `Image ${index + 1}` })) },
    });
    expect((await posted())[0].media).toEqual(urns);
  });

  it('uploads a video in the ranges LinkedIn asks for (read once, streamed), finalizes with the ETags, waits for AVAILABLE', async () => {
    await control('POST', '/processing', { polls: 1 });
    const size = 2 * FAKE_LINKEDIN_VIDEO_PART_BYTES + 12_345;
    let opened = 0;
    const video: OutgoingMedia = {
      ...outgoingMedia(Buffer.alloc(0), 'video/mp4'),
      size,
      durationMs: 4_000,
      // Small chunks that do not line up with the parts: the adapter cuts the ranges itself.
      open: async () => {
        opened += 1;
        return Readable.from(
          (function* () {
            for (let at = 0; at < size; at += 100_000) yield Buffer.alloc(Math.min(100_000, size - at), at % 251);
          })(),
        );
      },
    };
    await provider.publish(account, post(outgoingPart('A video', { media: [video] })));
    expect(opened).toBe(1);
    const [item] = (await control('GET', '/media')) as FakeLinkedInMedia[];
    expect(item).toMatchObject({ kind: 'video', file_size: size, received: size, status: 'AVAILABLE' });
    const initialize = restCalls().find((call) => call.url.includes('/rest/videos?action=initializeUpload'))!;
    expect(initialize.json).toEqual({
      initializeUploadRequest: { owner: 'urn:li:person:p1erson', fileSizeBytes: size, uploadCaptions: false, uploadThumbnail: false },
    });
    expect(sent.filter((call) => call.method === 'PUT')).toHaveLength(3);
    const finalize = restCalls().find((call) => call.url.includes('/rest/videos?action=finalizeUpload'))!;
    expect(finalize.json).toEqual({
      finalizeUploadRequest: { video: item.urn, uploadToken: item.upload_token, uploadedPartIds: item.etags },
    });
    const create = restCalls().find((call) => call.url.endsWith('/rest/posts'))!;
    expect((create.json as { content: unknown }).content).toEqual({ media: { id: item.urn } });
  });

  it('rejects the rendition when LinkedIn fails to process the video (PROCESSING_FAILED), posting nothing', async () => {
    await control('POST', '/processing', { fail: true });
    const video = { ...outgoingMedia(Buffer.alloc(50_000, 1), 'video/mp4'), durationMs: 2_000 };
    const failure = await failureOf(provider.publish(account, post(outgoingPart('Broken video', { media: [video] }))));
    expect(failure).toMatchObject({ outcome: 'rejected', kind: 'validation', code: 'media_processing_failed' });
    expect(await posted()).toHaveLength(0);
  });

  it('refuses what LinkedIn cannot post before sending anything: threads, a video with images, more than 20 images', async () => {
    const image = outgoingMedia(await png(9), 'image/png');
    const video = outgoingMedia(Buffer.alloc(10, 1), 'video/mp4');
    const cases: Array<[OutgoingPost, string]> = [
      [post(outgoingPart('one'), outgoingPart('two')), 'threads_unsupported'],
      [post(outgoingPart('mixed', { media: [image, video] })), 'media_mix_unsupported'],
      [post(outgoingPart('many', { media: new Array(21).fill(image) })), 'too_many_media'],
    ];
    for (const [outgoing, code] of cases)
      expect(await failureOf(provider.publish(account, outgoing))).toMatchObject({ outcome: 'rejected', kind: 'validation', code });
    expect(sent).toHaveLength(0);
  });

  it('renews the grant once on 401 (a revoked or expired token) and sends the call again with the new token', async () => {
    await control('POST', '/revoke', { access_token: token });
    const renewed = `tok-${randomUUID()}`;
    await control('POST', '/accounts', { access_token: renewed, person_id: 'p1erson' });
    let renewals = 0;
    const renewing: ProviderAccount = {
      ...account,
      renewGrant: async () => {
        renewals += 1;
        return { accessToken: renewed };
      },
    };
    await provider.publish(renewing, post(outgoingPart('After renewal')));
    expect(renewals).toBe(1);
    const creates = restCalls().filter((call) => call.url.endsWith('/rest/posts'));
    expect(creates.map((call) => call.headers.authorization)).toEqual([`Bearer ${token}`, `Bearer ${renewed}`]);
    expect(await posted()).toHaveLength(1);
  });

  it('answers rejected auth when the token is refused and cannot be renewed, or is refused again after renewal', async () => {
    await control('POST', '/revoke', { access_token: token });
    expect(await failureOf(provider.publish(account, post(outgoingPart('No renewal'))))).toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
    });
    const stillRevoked: ProviderAccount = { ...account, renewGrant: async () => ({ accessToken: token }) };
    expect(await failureOf(provider.publish(stillRevoked, post(outgoingPart('Renewed to nothing'))))).toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
    });
    expect(await posted()).toHaveLength(0);
  });

  it("waits as LinkedIn's 429 Retry-After says (a daily application or member limit)", async () => {
    await control('POST', '/failures', {
      path: '/rest/posts',
      method: 'POST',
      status: 429,
      headers: { 'retry-after': '2' },
      body: { status: 429, message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.' },
    });
    const failure = await failureOf(provider.publish(account, post(outgoingPart('Throttled'))));
    expect(failure).toMatchObject({ outcome: 'retryable', code: 'provider_rate_limited', httpStatus: 429, retryAfterMs: 2_000 });
    expect(await posted()).toHaveLength(0);
  });

  it('waits for the daily reset at midnight UTC when a 429 says nothing of when to come back', async () => {
    await control('POST', '/failures', {
      path: '/rest/images',
      method: 'POST',
      status: 429,
      body: { status: 429, message: 'Resource level throttle MEMBER DAY limit for calls to this resource is reached.' },
    });
    const before = Date.now();
    const failure = await failureOf(
      provider.publish(account, post(outgoingPart('Throttled upload', { media: [outgoingMedia(await png(4), 'image/png')] }))),
    );
    expect(failure).toMatchObject({ outcome: 'retryable', code: 'provider_rate_limited', httpStatus: 429 });
    const wait = failure.outcome === 'retryable' ? failure.retryAfterMs! : 0;
    expect(wait).toBeLessThanOrEqual(untilMidnightUtc(before));
    expect(wait).toBeGreaterThanOrEqual(untilMidnightUtc(Date.now()));
    expect(untilMidnightUtc(Date.parse('2026-03-01T23:59:30Z'))).toBe(30_000);
    expect(untilMidnightUtc(Date.parse('2026-03-01T00:00:00Z'))).toBe(24 * 3_600_000);
  });

  it('retries later on 5xx, also when an upload fails', async () => {
    await control('POST', '/failures', {
      path: '/dms-uploads/image',
      method: 'PUT',
      status: 503,
      body: { status: 503, message: 'Unavailable' },
    });
    const failure = await failureOf(
      provider.publish(account, post(outgoingPart('Upload 503', { media: [outgoingMedia(await png(3), 'image/png')] }))),
    );
    expect(failure).toMatchObject({ outcome: 'retryable', code: 'provider_error', httpStatus: 503 });
  });

  it('rejects a duplicate as validation (LinkedIn answers 422 with DUPLICATE_POST)', async () => {
    await provider.publish(account, post(outgoingPart('Same words')));
    const failure = await failureOf(provider.publish(account, post(outgoingPart('Same words'))));
    expect(failure).toMatchObject({ outcome: 'rejected', kind: 'validation', code: 'duplicate_content', httpStatus: 422 });
    expect(await posted()).toHaveLength(1);
  });

  it('names the reason of the refusals LinkedIn names: DUPLICATE_POST → duplicate_content, 426 → an inactive version', () => {
    const duplicate = refusalOf(new ProviderError('refused', 'refused', 'DUPLICATE_POST', { status: 422, sent: true }));
    expect((duplicate as DeliveryError).failure).toMatchObject({ outcome: 'rejected', kind: 'validation', code: 'duplicate_content' });
    const version = refusalOf(new ProviderError('refused', 'refused', undefined, { status: 426, sent: true }));
    expect((version as DeliveryError).failure).toMatchObject({ outcome: 'rejected', code: 'provider_version_inactive', httpStatus: 426 });
    const other = new ProviderError('refused', 'refused', undefined, { status: 400, sent: true });
    expect(refusalOf(other)).toBe(other);
  });

  describe('findPost', () => {
    it('finds the post whose answer was lost (same text, unescaped; created since the attempt)', async () => {
      const since = new Date();
      const lost = post(outgoingPart('Lost (answer) #1'));
      await control('POST', '/failures', { path: '/rest/posts', method: 'POST', drop_after_handling: true });
      expect((await failureOf(provider.publish(account, lost))).outcome).toBe('ambiguous');
      const [stored] = await posted();
      expect(await provider.findPost(account, lost, since)).toMatchObject({ externalId: stored.id, parts: [{ externalId: stored.id }] });
      const list = restCalls().find((call) => call.method === 'GET' && new URL(call.url).pathname === '/rest/posts')!;
      expect(Object.fromEntries(new URL(list.url).searchParams)).toEqual({
        author: 'urn:li:person:p1erson',
        q: 'author',
        count: '20',
        sortBy: 'LAST_MODIFIED',
      });
    });

    it('skips posts other renditions own, and posts made before the attempt', async () => {
      await provider.publish(account, post(outgoingPart('Twice said')));
      const [earlier] = await posted();
      const twin = post(outgoingPart('Twice said'));
      expect(await provider.findPost(account, { ...twin, ownedElsewhere: [earlier.id] }, new Date(Date.now() - 60_000))).toBeNull();
      expect(await provider.findPost(account, twin, new Date(Date.now() + 10 * 60_000))).toBeNull();
    });

    it("answers null when the author's page reaches back before the attempt, 'unknown' when it does not", async () => {
      const since = new Date(Date.now() - 60_000);
      expect(await provider.findPost(account, post(outgoingPart('Never sent')), since)).toBeNull();
      for (let index = 0; index < 20; index++) await provider.publish(account, post(outgoingPart(`Filler ${index}`)));
      expect(await provider.findPost(account, post(outgoingPart('Never sent')), since)).toBe('unknown');
    });

    it("answers 'unknown' when the grant may not read the author's posts (403), and throws when LinkedIn cannot be asked now", async () => {
      const stranger = { ...account, externalId: 'someone-else' };
      expect(await provider.findPost(stranger, post(outgoingPart('Whose?')), new Date())).toBe('unknown');
      await control('POST', '/failures', {
        path: '/rest/posts',
        method: 'GET',
        status: 503,
        body: { status: 503, message: 'Unavailable' },
      });
      await expect(provider.findPost(account, post(outgoingPart('Later')), new Date())).rejects.toBeInstanceOf(ProviderError);
    });
  });
});
