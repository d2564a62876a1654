import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import {
  callControl,
  type FakeFacebookPhoto,
  type FakeFacebookPost,
  type FakeFacebookRequest,
  type FakeFacebookVideo,
  type FakeServer,
  startFakeFacebook,
} from '@social/testing';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderError } from '../provider-error.js';
import { ProviderHttp } from '../provider-http.js';
import { DeliveryError, type OutgoingPost, type ProviderAccount } from '../social-provider.js';
import { FACEBOOK_GRAPH_VERSION, FacebookNetwork } from './facebook.network.js';
import { FacebookProvider } from './facebook.provider.js';

const client = { clientId: 'fb-app', clientSecret: 'fb-secret', instanceUrl: '' };
const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 10, g: 200, b: 90 } } })
  .png()
  .toBuffer();
const post = (part: ReturnType<typeof outgoingPart>): OutgoingPost => ({ marker: randomUUID(), parts: [part] });

async function failureOf(call: Promise<unknown>): Promise<DeliveryError['failure']> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return (error as DeliveryError).failure;
}

describe('Facebook Pages against the fake Graph API', () => {
  let fake: FakeServer;
  let provider: FacebookProvider;
  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const userToken = `user-${randomUUID()}`;
  const pageTokens = [`page-a-${randomUUID()}`, `page-b-${randomUUID()}`, `page-c-${randomUUID()}`];
  let accounts: ProviderAccount[] = [];

  beforeAll(async () => {
    fake = await startFakeFacebook();
    provider = new FacebookProvider(new FacebookNetwork(), new ProviderHttp({ facebook: fake.origin }), 2_000, {
      firstWaitMs: 10,
      maxWaitMs: 50,
      limitMs: 3_000,
    });
    await control('POST', '/users', {
      name: 'Ada',
      access_token: userToken,
      pages: pageTokens.map((token, index) => ({
        name: `Page ${index}`,
        ...(index === 0 ? { username: 'first' } : {}),
        access_token: token,
      })),
    });
  });

  afterAll(async () => {
    await fake?.stop();
  });

  beforeEach(async () => {
    await control('DELETE', '/requests');
  });

  it('connects every Page of the grant, each with its own token read with a long-lived user token, following the pages', async () => {
    await control('POST', '/users', { id: 'lonely', access_token: 'lonely-user', pages: [] });
    // Pages listed one per call: the adapter follows the cursors.
    await control('POST', '/listing', { size: 1 });
    const identities = await provider.fetchIdentities(client, { accessToken: userToken }, AbortSignal.timeout(2_000), { extension: false });
    expect(identities.map((identity) => [identity.username, identity.displayName, identity.grant?.accessToken])).toEqual([
      ['first', 'Page 0', pageTokens[0]],
      [identities[1].externalId, 'Page 1', pageTokens[1]],
      [identities[2].externalId, 'Page 2', pageTokens[2]],
    ]);
    const requests = (await control('GET', '/requests')) as FakeFacebookRequest[];
    expect(requests[0]).toMatchObject({ method: 'GET', path: `/${FACEBOOK_GRAPH_VERSION}/oauth/access_token` });
    expect(requests[0].query).toMatchObject({ grant_type: 'fb_exchange_token', client_id: 'fb-app', client_secret: 'fb-secret' });
    const listings = requests.filter((request) => request.path.endsWith('/me/accounts'));
    expect(listings).toHaveLength(3);
    // The listing is read with the long-lived token, never the short-lived one the code gave.
    expect(listings.every((request) => request.token_of.startsWith('user:'))).toBe(true);
    accounts = identities.map((identity) => ({
      id: randomUUID(),
      platform: 'facebook',
      externalId: identity.externalId,
      username: identity.username,
      instanceUrl: '',
      grant: identity.grant!,
    }));

    const none = provider.fetchIdentities(client, { accessToken: 'lonely-user' }, AbortSignal.timeout(2_000), { extension: false });
    await expect(none).rejects.toBeInstanceOf(ProviderError);
    await expect(none).rejects.toMatchObject({ failure: 'no_account', message: expect.stringMatching(/personal profile/) });
  });

  it("publishes a link post with the Page's own token; another Page's token is refused as Graph does", async () => {
    const [first, second] = accounts;
    const published = await provider.publish(first, post(outgoingPart('Read this', { link: 'https://example.com/a' })));
    const posts = (await control('GET', '/posts')) as FakeFacebookPost[];
    expect(posts.at(-1)).toMatchObject({
      id: published.externalId,
      page_id: first.externalId,
      message: 'Read this',
      link: 'https://example.com/a',
    });
    expect(published.externalUrl).toBe(`https://www.facebook.com/${first.externalId}/posts/${published.externalId.split('_')[1]}`);
    const mixedUp = { ...second, grant: first.grant };
    expect(await failureOf(provider.publish(mixedUp, post(outgoingPart('Wrong page'))))).toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
    });
  });

  it('publishes several photos as one post: each uploaded unpublished (streamed, with alt text), then attached in order', async () => {
    const [account] = accounts;
    const media = [0, 1, 2].map((index) => outgoingMedia(png, 'image/png', `Square ${index}`, { width: 32, height: 32 }));
    const published = await provider.publish(account, post(outgoingPart('Three squares', { media })));
    const posts = (await control('GET', '/posts')) as FakeFacebookPost[];
    const album = posts.at(-1)!;
    expect(album).toMatchObject({ id: published.externalId, type: 'album', media_count: 3, message: 'Three squares' });
    const photos = (await control('GET', '/photos')) as FakeFacebookPhoto[];
    const attached = album.photo_ids.map((id) => photos.find((photo) => photo.id === id)!);
    expect(attached.map((photo) => [photo.published, photo.alt_text, photo.size])).toEqual([
      [false, 'Square 0', png.length],
      [false, 'Square 1', png.length],
      [false, 'Square 2', png.length],
    ]);
    const requests = (await control('GET', '/requests')) as FakeFacebookRequest[];
    const uploads = requests.filter((request) => request.path.endsWith('/photos'));
    expect(uploads.map((request) => [request.token_in, request.files[0]?.field])).toEqual(Array(3).fill(['multipart', 'source']));
  });

  it('publishes one photo with its caption through /photos', async () => {
    const [account] = accounts;
    const media = [outgoingMedia(png, 'image/png', 'Green', { width: 32, height: 32 })];
    const published = await provider.publish(account, post(outgoingPart('One square', { link: 'https://example.com/b', media })));
    expect((await control('GET', '/posts')).at(-1)).toMatchObject({
      id: published.externalId,
      type: 'photo',
      media_count: 1,
      message: 'One square\n\nhttps://example.com/b',
    });
  });

  it('uploads a video in the ranges Facebook asks for, resending a chunk after a passing failure, then waits for processing', async () => {
    const [account] = accounts;
    await control('POST', '/chunk', { bytes: 40_000 });
    await control('POST', '/processing', { polls: 2 });
    const path = `/${FACEBOOK_GRAPH_VERSION}/${account.externalId}/videos`;
    await control('POST', '/failures', {
      path: `${path}#transfer`,
      method: 'POST',
      status: 503,
      body: { error: { code: 2, message: 'x' } },
    });
    const bytes = randomBytes(100_000);
    const video = { ...outgoingMedia(bytes, 'video/mp4', '', { width: 640, height: 360 }), durationMs: 4_000 };
    const published = await provider.publish(account, post(outgoingPart('Watch', { title: 'A film', media: [video] })));
    const videos = (await control('GET', '/videos')) as FakeFacebookVideo[];
    const made = videos.find((candidate) => candidate.id === published.externalId)!;
    expect(made).toMatchObject({
      file_size: 100_000,
      received: 100_000,
      transfers: 3,
      finished: true,
      title: 'A film',
      description: 'Watch',
    });
    expect(made.video_status).toBe('ready');
    expect(published.externalUrl).toBe(`https://www.facebook.com/${account.externalId}/videos/${made.id}/`);
    const requests = (await control('GET', '/requests')) as FakeFacebookRequest[];
    const phases = requests.filter((request) => request.path === path).map((request) => request.fields.upload_phase);
    expect(phases).toEqual(['start', 'transfer', 'transfer', 'transfer', 'transfer', 'finish']);
    await control('POST', '/chunk', { bytes: 1024 * 1024 });
    await control('POST', '/processing', { polls: 0 });
  });

  it("rejects a video Facebook could not process, and leaves a lost finish ambiguous, found again among the Page's videos", async () => {
    const [account] = accounts;
    const video = () => ({ ...outgoingMedia(randomBytes(5_000), 'video/mp4', '', { width: 640, height: 360 }), durationMs: 4_000 });
    await control('POST', '/processing', { polls: 0, fail: true });
    expect(await failureOf(provider.publish(account, post(outgoingPart('Broken', { media: [video()] }))))).toMatchObject({
      outcome: 'rejected',
      code: 'media_processing_failed',
    });
    await control('POST', '/processing', { polls: 0, fail: false });
    const since = new Date();
    const lost = post(outgoingPart('Lost film', { media: [video()] }));
    const path = `/${FACEBOOK_GRAPH_VERSION}/${account.externalId}/videos#finish`;
    await control('POST', '/failures', { path, method: 'POST', drop_after_handling: true });
    expect((await failureOf(provider.publish(account, lost))).outcome).toBe('ambiguous');
    const videos = (await control('GET', '/videos')) as FakeFacebookVideo[];
    expect(await provider.findPost(account, lost, since)).toMatchObject({ externalId: videos.at(-1)!.id });
  });

  it("maps the Pages rate limit (400, code 80001) and Graph's 613 to a retryable wait, creating nothing", async () => {
    const [account] = accounts;
    const path = `/${FACEBOOK_GRAPH_VERSION}/${account.externalId}/feed`;
    for (const code of [80_001, 613]) {
      await control('POST', '/failures', { path, method: 'POST', status: 400, body: { error: { code, message: 'Too many calls' } } });
      expect(await failureOf(provider.publish(account, post(outgoingPart(`Limited ${code}`))))).toMatchObject({
        outcome: 'retryable',
        code: 'provider_rate_limited',
        retryAfterMs: expect.any(Number),
      });
    }
  });

  it("reads the Page's followers and a post's reactions, comments, shares and views", async () => {
    const [account] = accounts;
    const published = await provider.publish(account, post(outgoingPart('Counted')));
    await control('POST', `/posts/${published.externalId}/insights`, { views: 120, reactions: 7, comments: 3, shares: 2 });
    expect(await provider.fetchAccountMetrics(account)).toEqual({ followers: 42, following: 0, posts: 0 });
    expect(await provider.fetchPostMetrics(account, [published.externalId, `${account.externalId}_404`])).toEqual([
      { externalId: published.externalId, views: 120, likes: 7, comments: 3, reposts: 2 },
    ]);
  });
});
