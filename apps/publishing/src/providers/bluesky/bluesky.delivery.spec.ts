import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { callControl, FakeBluesky, FakeBlueskyRecord, startFakeBluesky } from '@social/testing';
import { createHash, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { v7 as uuidv7 } from 'uuid';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderHttp } from '../provider-http.js';
import { DeliveryError, type OutgoingPost, type OutgoingPostPart, type ProviderAccount, type ProviderGrant } from '../social-provider.js';
import { BlueskyProvider, jwtExpiry } from './bluesky.provider.js';
import { recordKey } from './record-key.js';

/**
 * The Bluesky adapter (with @atproto/api) over real HTTP against a fake PDS
 * (libs/testing), reached the way production reaches bsky.social: through
 * PROVIDER_API_ORIGINS.
 */
describe('Bluesky delivery (against a fake PDS)', () => {
  let fake: FakeBluesky;
  let provider: BlueskyProvider;
  let account: ProviderAccount;
  const handle = 'ada.bsky.social';
  const password = `app-${randomUUID()}`;

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const records = (): Promise<FakeBlueskyRecord[]> => control('GET', '/records');
  const part = outgoingPart;
  const post = (...parts: OutgoingPostPart[]): OutgoingPost => ({ marker: uuidv7(), parts });
  const media = outgoingMedia;
  const jpeg = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#36c' } })
      .jpeg()
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
  /** What ProviderAccounts does for the adapter: renew and remember the grant. */
  const withRenewal = (target: ProviderAccount): ProviderAccount => {
    const renewable: ProviderAccount = { ...target };
    renewable.renewGrant = async () => {
      renewable.grant = await provider.refreshGrant(renewable, AbortSignal.timeout(1_000));
      return renewable.grant;
    };
    return renewable;
  };

  beforeAll(async () => {
    fake = await startFakeBluesky();
    await control('POST', '/accounts', { handle, password, display_name: 'Ada' });
    await control('POST', '/accounts', { handle: 'grace.bsky.social', password: 'other', display_name: 'Grace' });
    // Production's entryway, redirected to the fake like every bluesky origin.
    provider = new BlueskyProvider({ bluesky: fake.origin }, new ProviderHttp({ bluesky: fake.origin }), 1_000);
    const signedIn = await provider.signIn(
      { instanceUrl: 'https://bsky.social', identifier: handle, password },
      AbortSignal.timeout(1_000),
    );
    account = {
      id: randomUUID(),
      platform: 'bluesky',
      externalId: signedIn.identity.externalId,
      username: handle,
      instanceUrl: signedIn.instanceUrl,
      grant: signedIn.grant,
    };
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
  });

  afterAll(async () => {
    await fake.stop();
  });

  it('signs in with the app password: identity, sealed-to-be grant with the JWT expiry, and refuses a wrong password', async () => {
    expect(account.externalId).toMatch(/^did:plc:/);
    expect(account.instanceUrl).toBe('https://bsky.social');
    expect(account.grant).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresAt: jwtExpiry(account.grant!.accessToken),
      appPassword: password,
      did: account.externalId,
      pds: 'https://bsky.social',
      scopes: [],
    });
    expect(Date.parse(account.grant!.expiresAt!)).toBeGreaterThan(Date.now() + 3_600_000);
    await expect(
      provider.signIn({ instanceUrl: 'https://bsky.social', identifier: handle, password: 'wrong' }, AbortSignal.timeout(1_000)),
    ).rejects.toMatchObject({
      failure: 'refused',
      networkCode: 'AuthenticationRequired',
    });
  });

  it('posts text with link and hashtag facets under the record key of the marker', async () => {
    const sent = post(part('Read https://example.com/notes about #atproto'));
    const published = await provider.publish(account, sent);
    const [record] = await records();
    const rkey = recordKey(sent.marker, 0);
    expect(record.rkey).toBe(rkey);
    expect(record.value).toMatchObject({
      $type: 'app.bsky.feed.post',
      text: 'Read https://example.com/notes about #atproto',
      facets: [
        { index: { byteStart: 5, byteEnd: 30 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/notes' }] },
        { index: { byteStart: 37, byteEnd: 45 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'atproto' }] },
      ],
    });
    expect(published).toEqual({
      externalId: record.uri,
      externalUrl: `https://bsky.app/profile/${account.externalId}/post/${rkey}`,
      parts: [{ externalId: record.uri, externalUrl: `https://bsky.app/profile/${account.externalId}/post/${rkey}` }],
    });
    // Sent again (a retry), the same record: nothing new.
    await expect(provider.publish(account, sent)).resolves.toEqual(published);
    expect(await records()).toHaveLength(1);
  });

  it('posts a thread as replies with root and parent', async () => {
    const published = await provider.publish(account, post(part('one'), part('two'), part('three')));
    const [one, two, three] = await records();
    expect(one.value.reply).toBeUndefined();
    expect(two.value.reply).toEqual({ root: { uri: one.uri, cid: one.cid }, parent: { uri: one.uri, cid: one.cid } });
    expect(three.value.reply).toEqual({ root: { uri: one.uri, cid: one.cid }, parent: { uri: two.uri, cid: two.cid } });
    expect(published.parts.map((item) => item.externalId)).toEqual([one.uri, two.uri, three.uri]);
  });

  it('attaches a link card for a link without images', async () => {
    await provider.publish(account, post(part('Our notes', { link: 'https://example.com/notes', title: 'Release notes' })));
    const [record] = await records();
    expect(record.value.text).toBe('Our notes');
    expect(record.value.embed).toEqual({
      $type: 'app.bsky.embed.external',
      external: { uri: 'https://example.com/notes', title: 'Release notes', description: '' },
    });
  });

  it(
    'uploads images as streamed blobs with alt text and aspect ratio; ' + 'at most 4; the lexicon refuses one over 1,000,000 bytes',
    async () => {
      const bytes = await jpeg(300, 200);
      await provider.publish(
        account,
        post(part('Look', { media: [media(bytes, 'image/jpeg', 'A lighthouse', { width: 300, height: 200 })] })),
      );
      const [record] = await records();
      expect(record.value.embed).toEqual({
        $type: 'app.bsky.embed.images',
        images: [
          {
            alt: 'A lighthouse',
            image: { $type: 'blob', ref: { $link: expect.stringMatching(/^bafkrei/) }, mimeType: 'image/jpeg', size: bytes.length },
            aspectRatio: { width: 300, height: 200 },
          },
        ],
      });
      expect(await control('GET', '/blobs')).toEqual([
        expect.objectContaining({ mimeType: 'image/jpeg', size: bytes.length, sha256: sha256(bytes) }),
      ]);
      const image = media(bytes, 'image/jpeg');
      await expect(
        failureOf(provider.publish(account, post(part('Too many', { media: [image, image, image, image, image] })))),
      ).resolves.toMatchObject({
        outcome: 'rejected',
        kind: 'validation',
        code: 'too_many_media',
      });
      await expect(
        failureOf(provider.publish(account, post(part('Mixed', { media: [image, media(Buffer.alloc(10), 'video/mp4')] })))),
      ).resolves.toMatchObject({
        outcome: 'rejected',
        code: 'too_many_media',
      });
      await expect(
        failureOf(provider.publish(account, post(part('Too big', { media: [media(Buffer.alloc(1_000_001, 1), 'image/jpeg')] })))),
      ).resolves.toMatchObject({
        outcome: 'rejected',
        kind: 'validation',
        httpStatus: 400,
      });
      expect(await records()).toHaveLength(1);
    },
  );

  it('posts a video as app.bsky.embed.video with its alt text and aspect ratio', async () => {
    const video = Buffer.alloc(250_000, 3);
    await provider.publish(account, post(part('Watch', { media: [media(video, 'video/mp4', 'Surf', { width: 1920, height: 1080 })] })));
    const [record] = await records();
    expect(record.value.embed).toEqual({
      $type: 'app.bsky.embed.video',
      video: { $type: 'blob', ref: { $link: expect.stringMatching(/^bafkrei/) }, mimeType: 'video/mp4', size: video.length },
      alt: 'Surf',
      aspectRatio: { width: 1920, height: 1080 },
    });
  });

  it('calls a failed upload (5xx) retryable and a refused one (BlobTooLarge) rejected, posting nothing', async () => {
    const image = media(await jpeg(10, 10), 'image/jpeg');
    await control('POST', '/failures', { path: '/xrpc/com.atproto.repo.uploadBlob', status: 502, body: { error: 'UpstreamFailure' } });
    await expect(failureOf(provider.publish(account, post(part('Later', { media: [image] }))))).resolves.toMatchObject({
      outcome: 'retryable',
      httpStatus: 502,
    });
    await control('POST', '/blob-limit', { bytes: 100 });
    await expect(failureOf(provider.publish(account, post(part('Never', { media: [image] }))))).resolves.toMatchObject({
      outcome: 'rejected',
      kind: 'validation',
      httpStatus: 400,
    });
    expect(await records()).toHaveLength(0);
  });

  it.each([
    [
      'a rate limit, with its reset',
      { status: 429, body: { error: 'RateLimitExceeded' }, headers: { 'ratelimit-reset': String(Math.floor(Date.now() / 1000) + 30) } },
      { outcome: 'retryable', code: 'provider_rate_limited', httpStatus: 429 },
    ],
    ['a 5xx', { status: 500, body: { error: 'InternalServerError' } }, { outcome: 'retryable', code: 'provider_error', httpStatus: 500 }],
    [
      'a refused record',
      { status: 400, body: { error: 'InvalidRequest', message: 'bad' } },
      { outcome: 'rejected', kind: 'validation', code: 'provider_rejected', httpStatus: 400 },
    ],
    ['a stall after sending', { delay_ms: 3_000 }, { outcome: 'ambiguous', code: 'provider_timeout' }],
    ['a dropped connection', { drop: true }, { outcome: 'ambiguous', code: 'provider_connection_lost' }],
    ['a connection reset mid-answer', { cut_answer: true }, { outcome: 'ambiguous' }],
  ])('classifies %s of createRecord', async (_name, failure, expected) => {
    await control('POST', '/failures', { path: '/xrpc/com.atproto.repo.createRecord', ...failure });
    const result = await failureOf(provider.publish(account, post(part('x'))));
    expect(result).toMatchObject(expected);
    // The reset (30 s ahead) is computed when the table is built, seconds before this case runs on a busy machine.
    if (result.code === 'provider_rate_limited') expect((result as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(10_000);
  });

  it('rejects an expired session as auth when it cannot be renewed, and renews it once when it can', async () => {
    await control('POST', '/expire-access');
    await expect(failureOf(provider.publish(account, post(part('x'))))).resolves.toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
      httpStatus: 401,
    });
    const renewable = withRenewal(account);
    await provider.publish(renewable, post(part('after renewal')));
    expect(await records()).toHaveLength(1);
    expect(await control('GET', '/sessions')).toMatchObject({ refreshed: 1 });
    expect(renewable.grant!.accessToken).not.toBe(account.grant!.accessToken);
    account = { ...account, grant: renewable.grant };
  });

  it('signs in again from the app password when the refresh token died; refuses when the password was revoked', async () => {
    await control('POST', '/revoke-refresh');
    const before = (await control('GET', '/sessions')).created;
    const grant = await provider.refreshGrant(account, AbortSignal.timeout(1_000));
    expect((await control('GET', '/sessions')).created).toBe(before + 1);
    account = { ...account, grant };
    await control('POST', '/revoke-refresh');
    const revoked: ProviderAccount = { ...account, grant: { ...grant, appPassword: 'revoked' } as ProviderGrant };
    await expect(provider.refreshGrant(revoked, AbortSignal.timeout(1_000))).rejects.toMatchObject({ failure: 'refused' });
  });

  it('finds a post whose answer was lost; null for one never created; throws when the PDS fails (asked again later)', async () => {
    const lost = post(part('lost answer'));
    await control('POST', '/failures', { path: '/xrpc/com.atproto.repo.createRecord', drop_after_handling: true });
    await expect(failureOf(provider.publish(account, lost))).resolves.toMatchObject({ outcome: 'ambiguous' });
    const [record] = await records();
    await expect(provider.findPost(account, lost, new Date())).resolves.toMatchObject({
      externalId: record.uri,
      parts: [{ externalId: record.uri }],
    });
    await expect(provider.findPost(account, post(part('never sent')), new Date())).resolves.toBeNull();
    await control('POST', '/failures', { path: '/xrpc/com.atproto.repo.getRecord', status: 502 });
    await expect(provider.findPost(account, lost, new Date())).rejects.toMatchObject({ failure: 'unavailable' });
    await expect(provider.findPost(account, lost, new Date())).resolves.toMatchObject({ externalId: record.uri });
  });

  it('never takes another post under its record key for its own (two renditions sharing a key)', async () => {
    const first = post(part('the post that holds the key'));
    await provider.publish(account, first);
    const sharingTheKey: OutgoingPost = { marker: first.marker, parts: [part('another rendition, same key')] };
    await expect(provider.findPost(account, sharingTheKey, new Date())).resolves.toBeNull();
    await expect(failureOf(provider.publish(account, sharingTheKey))).resolves.toMatchObject({
      outcome: 'rejected',
      kind: 'validation',
      code: 'provider_record_key_taken',
    });
    expect((await records()).map((record) => record.value.text)).toEqual(['the post that holds the key']);
  });

  it('continues a thread that failed at part 2 without duplicating part 1', async () => {
    const thread = post(part('first'), part('second'), part('third'));
    await control('POST', '/failures', { path: '/xrpc/com.atproto.repo.createRecord', status: 503 });
    await expect(failureOf(provider.publish(account, thread))).resolves.toMatchObject({ outcome: 'retryable' });
    expect(await records()).toHaveLength(0);
    // Part 1 goes in, part 2's answer is lost after it was created, part 3 never went.
    let creates = 0;
    const flaky = new BlueskyProvider({ bluesky: fake.origin }, new ProviderHttp({}), 1_000, undefined, async (url, init) => {
      if (String(url).endsWith('com.atproto.repo.createRecord') && ++creates === 2) {
        await fetch(url, init);
        throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
      }
      return fetch(url, init);
    });
    await expect(failureOf(flaky.publish(account, thread))).resolves.toMatchObject({ outcome: 'ambiguous' });
    expect((await records()).map((record) => record.value.text)).toEqual(['first', 'second']);
    await expect(provider.findPost(account, thread, new Date())).resolves.toBeNull();
    const published = await provider.publish(account, thread);
    const all = await records();
    expect(all.map((record) => record.value.text)).toEqual(['first', 'second', 'third']);
    expect(all[2].value.reply).toEqual({ root: { uri: all[0].uri, cid: all[0].cid }, parent: { uri: all[1].uri, cid: all[1].cid } });
    await expect(provider.findPost(account, thread, new Date())).resolves.toEqual(published);
  });

  it('reads profile counters, post counts and suggestions', async () => {
    const published = await provider.publish(account, post(part('counted')));
    await expect(provider.fetchAccountMetrics(account)).resolves.toEqual({ followers: 12, following: 4, posts: 1 });
    await expect(provider.fetchPostMetrics(account, [published.externalId])).resolves.toEqual([
      { externalId: published.externalId, views: 0, likes: 7, comments: 0, reposts: 3 },
    ]);
    await expect(provider.fetchFollowRecommendations(account, 10)).resolves.toEqual([
      expect.objectContaining({
        handle: 'grace.bsky.social',
        displayName: 'Grace',
        profileUrl: 'https://bsky.app/profile/grace.bsky.social',
        score: 1,
      }),
    ]);
  });
});
