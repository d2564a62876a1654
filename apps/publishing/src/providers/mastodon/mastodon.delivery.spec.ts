import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { callControl, FakeMastodon, FakeMastodonStatus, startFakeMastodon } from '@social/testing';
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderHttp } from '../provider-http.js';
import { DeliveryError, type OutgoingPost, type OutgoingPostPart, type ProviderAccount } from '../social-provider.js';
import { MastodonNetwork } from './mastodon.network.js';
import { MastodonProvider } from './mastodon.provider.js';

/**
 * The Mastodon adapter over real HTTP against a fake Mastodon server
 * (libs/testing): what it posts, and how each failure becomes a DeliveryFailure.
 */
describe('Mastodon delivery (against a fake Mastodon server)', () => {
  let fake: FakeMastodon;
  let account: ProviderAccount;
  let provider: MastodonProvider;

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const posted = (): Promise<FakeMastodonStatus[]> => control('GET', '/statuses');
  const part = outgoingPart;
  const post = (...parts: OutgoingPostPart[]): OutgoingPost => ({ marker: randomUUID(), parts });
  const media = outgoingMedia;
  const png = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const failureOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DeliveryError);
    return (error as DeliveryError).failure;
  };

  beforeAll(async () => {
    fake = await startFakeMastodon();
    const token = `tok-${randomUUID()}`;
    const me = await control('POST', '/accounts', { access_token: token, username: 'ada' });
    // Another account, so the server has someone to suggest.
    await control('POST', '/accounts', { access_token: `tok-${randomUUID()}`, username: 'grace' });
    const host = new URL(fake.origin).host;
    account = {
      id: randomUUID(),
      platform: 'mastodon',
      externalId: `${me.id}@${host}`,
      username: `ada@${host}`,
      instanceUrl: fake.origin,
      grant: { accessToken: token },
    };
    provider = new MastodonProvider(new MastodonNetwork(), new ProviderHttp({}), 1_000);
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
  });

  afterAll(async () => {
    await fake.stop();
  });

  it('posts text with title and link, once, keyed by the marker', async () => {
    const sent = post(part('We shipped.', { title: 'Launch', link: 'https://example.com/launch' }));
    const published = await provider.publish(account, sent);
    const [status] = await posted();
    expect(status).toMatchObject({
      text: 'Launch\n\nWe shipped.\n\nhttps://example.com/launch',
      in_reply_to_id: null,
      idempotency_key: `${sent.marker}#0`,
      visibility: 'public',
    });
    expect(published).toEqual({
      externalId: status.id,
      externalUrl: `${fake.origin}/@ada/${status.id}`,
      parts: [{ externalId: status.id, externalUrl: `${fake.origin}/@ada/${status.id}` }],
    });
    // The same delivery sent again is the same status (Mastodon honours the Idempotency-Key).
    await expect(provider.publish(account, sent)).resolves.toEqual(published);
    expect(await posted()).toHaveLength(1);
  });

  it('posts a thread as replies, in order', async () => {
    const published = await provider.publish(account, post(part('1/3 first'), part('2/3 second'), part('3/3 third')));
    const statuses = await posted();
    expect(statuses.map((status) => status.text)).toEqual(['1/3 first', '2/3 second', '3/3 third']);
    expect(statuses.map((status) => status.in_reply_to_id)).toEqual([null, statuses[0].id, statuses[1].id]);
    expect(published.parts.map((item) => item.externalId)).toEqual(statuses.map((status) => status.id));
    expect(published.externalId).toBe(statuses[0].id);
  });

  it('uploads media as a streamed multipart with alt text, waits while the server processes it, and attaches it', async () => {
    const bytes = await png(64, 48);
    await control('POST', '/processing', { polls: 2 });
    await provider.publish(account, post(part('A picture', { media: [media(bytes, 'image/png', 'A red square')] })));
    const [status] = await posted();
    const uploaded = await control('GET', '/media');
    expect(uploaded).toEqual([
      expect.objectContaining({
        type: 'image',
        size: bytes.length,
        sha256: sha256(bytes),
        mime_type: 'image/png',
        width: 64,
        height: 48,
        exif: false,
        description: 'A red square',
        polls_left: 0,
        status_id: status.id,
      }),
    ]);
    expect(status.media_ids).toEqual([uploaded[0].id]);
  });

  it('uploads a video, polls until processed, then posts it', async () => {
    const video = Buffer.concat([Buffer.from('00000018667479706d703432', 'hex'), Buffer.alloc(300_000, 7)]);
    await provider.publish(account, post(part('A clip', { media: [media(video, 'video/mp4', 'Waves')] })));
    const [status] = await posted();
    const [uploaded] = await control('GET', '/media');
    expect(uploaded).toMatchObject({
      type: 'video',
      size: video.length,
      sha256: sha256(video),
      description: 'Waves',
      polls_left: 0,
      status_id: status.id,
    });
  });

  it(
    'refuses more than 4 media; what the server refuses (too large, ' + 'alt text too long, a video with images) rejects without posting',
    async () => {
      const image = media(await png(8, 8), 'image/png');
      await expect(
        failureOf(provider.publish(account, post(part('x', { media: [image, image, image, image, image] })))),
      ).resolves.toMatchObject({
        outcome: 'rejected',
        kind: 'validation',
        code: 'too_many_media',
      });
      await control('POST', '/limits', { image_bytes: 1000 });
      await expect(
        failureOf(
          provider.publish(account, post(part('x', { media: [media(Buffer.concat([await png(8, 8), Buffer.alloc(2000)]), 'image/png')] }))),
        ),
      ).resolves.toMatchObject({
        outcome: 'rejected',
        kind: 'validation',
        code: 'provider_rejected',
        httpStatus: 422,
      });
      await control('DELETE', '/state');
      await expect(
        failureOf(provider.publish(account, post(part('x', { media: [media(await png(8, 8), 'image/png', 'a'.repeat(1501))] })))),
      ).resolves.toMatchObject({
        outcome: 'rejected',
        kind: 'validation',
        httpStatus: 422,
      });
      const clip = media(Buffer.alloc(1000, 1), 'video/mp4');
      await expect(failureOf(provider.publish(account, post(part('x', { media: [image, clip] }))))).resolves.toMatchObject({
        outcome: 'rejected',
        kind: 'validation',
        httpStatus: 422,
      });
      expect(await posted()).toEqual([]);
    },
  );

  it('calls an upload the server failed (5xx) retryable: nothing was posted', async () => {
    await control('POST', '/failures', { path: '/api/v2/media', method: 'POST', status: 503 });
    await expect(
      failureOf(provider.publish(account, post(part('x', { media: [media(await png(8, 8), 'image/png')] })))),
    ).resolves.toMatchObject({
      outcome: 'retryable',
      code: 'provider_error',
      httpStatus: 503,
    });
    expect(await posted()).toEqual([]);
  });

  it.each([
    [
      'a rate limit, with its Retry-After',
      { status: 429, headers: { 'retry-after': '3' } },
      { outcome: 'retryable', code: 'provider_rate_limited', httpStatus: 429, retryAfterMs: 3000 },
    ],
    ['a 5xx', { status: 503 }, { outcome: 'retryable', code: 'provider_error', httpStatus: 503 }],
    [
      'a revoked token',
      { status: 401, body: { error: 'The access token was revoked' } },
      { outcome: 'rejected', kind: 'auth', httpStatus: 401 },
    ],
    [
      'a refused text',
      { status: 422, body: { error: 'Validation failed' } },
      { outcome: 'rejected', kind: 'validation', code: 'provider_rejected', httpStatus: 422 },
    ],
    ['a stall after the request was sent', { delay_ms: 3_000 }, { outcome: 'ambiguous', code: 'provider_timeout' }],
    ['a connection dropped before the answer', { drop_after_handling: true }, { outcome: 'ambiguous', code: 'provider_connection_lost' }],
    ['a connection reset mid-answer', { cut_answer: true }, { outcome: 'ambiguous', code: 'provider_answer_unreadable', httpStatus: 200 }],
  ])('classifies %s', async (_name, failure, expected) => {
    await control('POST', '/failures', { path: '/api/v1/statuses', method: 'POST', ...failure });
    await expect(failureOf(provider.publish(account, post(part(`classified ${randomUUID()}`))))).resolves.toMatchObject(expected);
  });

  it('calls an unreachable server retryable: nothing was sent', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const gone = { ...account, instanceUrl: `http://127.0.0.1:${port}` };
    await expect(failureOf(provider.publish(gone, post(part('hello'))))).resolves.toMatchObject({
      outcome: 'retryable',
      code: 'provider_unavailable',
    });
  });

  it('finds a post whose answer was lost, and says null when it was never created', async () => {
    const since = new Date();
    const lost = post(
      part('Lost answer, <created> anyway & then some\n\nsee https://example.com/a/path/longer/than/thirty/characters #tag'),
    );
    await control('POST', '/failures', { path: '/api/v1/statuses', drop_after_handling: true });
    await expect(failureOf(provider.publish(account, lost))).resolves.toMatchObject({ outcome: 'ambiguous' });
    const [status] = await posted();
    await expect(provider.findPost(account, lost, since)).resolves.toEqual({
      externalId: status.id,
      externalUrl: `${fake.origin}/@ada/${status.id}`,
      parts: [{ externalId: status.id, externalUrl: `${fake.origin}/@ada/${status.id}` }],
    });
    await expect(provider.findPost(account, post(part('Never sent')), since)).resolves.toBeNull();
    // The same text with a picture is another post.
    const withMedia = { ...lost, parts: [{ ...lost.parts[0], media: [media(Buffer.alloc(1), 'image/png')] }] };
    await expect(provider.findPost(account, withMedia, since)).resolves.toBeNull();
    // A status another rendition owns is never this post, however alike the text.
    await expect(provider.findPost(account, { ...lost, ownedElsewhere: [status.id] }, since)).resolves.toBeNull();
  });

  it('throws when the server cannot be asked (the engine reconciles again later), and answers once it can', async () => {
    await control('POST', '/failures', { path: `/api/v1/accounts/${account.externalId.split('@')[0]}/statuses`, status: 503 });
    await expect(provider.findPost(account, post(part('x')), new Date())).rejects.toMatchObject({ failure: 'unavailable' });
    await expect(provider.findPost(account, post(part('x')), new Date())).resolves.toBeNull();
  });

  it('resumes a thread that failed at part 2 without duplicating part 1', async () => {
    const since = new Date();
    const thread = post(part('Thread one'), part('Thread two'), part('Thread three'));
    let calls = 0;
    const counting = new MastodonProvider(
      new MastodonNetwork(),
      new ProviderHttp({}, undefined, async (url, init) => {
        calls += 1;
        // The second status of the first attempt never answers.
        if (String(url).endsWith('/api/v1/statuses') && calls === 2) {
          await fetch(url, init);
          throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'UND_ERR_SOCKET' } });
        }
        return fetch(url, init);
      }),
      1_000,
    );
    await expect(failureOf(counting.publish(account, thread))).resolves.toMatchObject({ outcome: 'ambiguous' });
    expect((await posted()).map((status) => status.text)).toEqual(['Thread one', 'Thread two']);
    // Reconciling: only the first parts exist, and the keys still hold, so sending again is safe.
    await expect(provider.findPost(account, thread, since)).resolves.toBeNull();
    const published = await provider.publish(account, thread);
    const statuses = await posted();
    expect(statuses.map((status) => status.text)).toEqual(['Thread one', 'Thread two', 'Thread three']);
    expect(statuses[2].in_reply_to_id).toBe(statuses[1].id);
    expect(published.parts.map((item) => item.externalId)).toEqual(statuses.map((status) => status.id));
    await expect(provider.findPost(account, thread, since)).resolves.toEqual(published);
  });

  it('reads counters and suggestions from the server', async () => {
    await provider.publish(account, post(part('counted')));
    await expect(provider.fetchAccountMetrics(account)).resolves.toEqual({ followers: 10, following: 3, posts: 1 });
    const [status] = await posted();
    await expect(provider.fetchPostMetrics(account, [status.id])).resolves.toEqual([
      { externalId: status.id, views: 0, likes: 5, comments: 0, reposts: 2 },
    ]);
    await expect(provider.fetchFollowRecommendations(account, 5)).resolves.toEqual([
      expect.objectContaining({ handle: 'grace', bio: 'Fake & friendly' }),
    ]);
  });
});
