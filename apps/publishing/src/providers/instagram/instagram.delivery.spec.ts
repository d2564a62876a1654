import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  callControl,
  type FakeInstagram,
  type FakeInstagramComment,
  type FakeInstagramContainer,
  type FakeInstagramMedia,
  type FakeInstagramRequest,
  startFakeInstagram,
} from '@social/testing';
import { randomUUID } from 'node:crypto';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { failureOf, fakeProfileAccount } from '../graph/graph-profile.conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { type OutgoingMedia, type OutgoingPost, type OutgoingPostPart, type ProviderAccount } from '../social-provider.js';
import { INSTAGRAM_API_VERSION, InstagramNetwork } from './instagram.network.js';
import { InstagramProvider } from './instagram.provider.js';

/**
 * The Instagram adapter over real HTTP against the fake Instagram API (libs/testing): the containers it makes, how it
 * waits for them and makes a failed one again, the publishing limit, the first comment, and failures mapped.
 */
describe('Instagram delivery (against the fake Instagram API)', () => {
  let fake: FakeInstagram;
  let account: ProviderAccount;
  let userId: string;
  let http: ProviderHttp;
  const polling = { firstWaitMs: 10, maxWaitMs: 40, limitMs: 3_000 };
  const provider = () => new InstagramProvider(new InstagramNetwork(), http, 2_000, polling);

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const posted = (): Promise<FakeInstagramMedia[]> => control('GET', '/posts');
  const containers = (): Promise<FakeInstagramContainer[]> => control('GET', '/containers');
  const comments = (): Promise<FakeInstagramComment[]> => control('GET', '/comments');
  const requests = (): Promise<FakeInstagramRequest[]> => control('GET', '/requests');
  const post = (part: OutgoingPostPart, settings?: Record<string, unknown>): OutgoingPost => ({
    marker: randomUUID(),
    parts: [part],
    settings,
  });
  /** Media Instagram fetches from the fake's own file server. */
  const served = async (name: string, contentType: string, sides = { width: 1080, height: 1350 }): Promise<OutgoingMedia> => {
    const { url } = (await control('POST', '/files', { name, content_type: contentType, size: 2_048 })) as { url: string };
    const media = outgoingMedia(Buffer.alloc(2_048), contentType, contentType.startsWith('image/') ? `Alt of ${name}` : '', sides, url);
    return contentType.startsWith('video/') ? { ...media, durationMs: 8_000 } : media;
  };

  beforeAll(async () => {
    fake = await startFakeInstagram();
    http = new ProviderHttp({ instagram: fake.origin });
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
    ({ account, userId } = await fakeProfileAccount(control, 'instagram', 'ada.ig'));
  });

  afterAll(async () => {
    await fake?.stop();
  });

  it('publishes an image: the limit read first, one container with image_url, caption and alt_text, then media_publish', async () => {
    const image = await served('square.jpg', 'image/jpeg');
    const published = await provider().publish(account, post(outgoingPart('Hello Instagram', { media: [image] })));
    const [media] = await posted();
    expect(media).toMatchObject({ id: published.externalId, caption: 'Hello Instagram', media_type: 'IMAGE', media_count: 1 });
    expect(media.items).toEqual([expect.objectContaining({ fetched_type: 'image/jpeg', alt_text: 'Alt of square.jpg' })]);
    expect(published.externalUrl).toMatch(/^https:\/\/www\.instagram\.com\/p\/\w+\/$/);
    const calls = (await requests()).map((request) => `${request.method} ${request.path}`);
    expect(calls[0]).toBe(`GET /${INSTAGRAM_API_VERSION}/${userId}/content_publishing_limit`);
    expect(calls).toContain(`POST /${INSTAGRAM_API_VERSION}/${userId}/media`);
    expect(calls).toContain(`POST /${INSTAGRAM_API_VERSION}/${userId}/media_publish`);
    const create = (await requests()).find((request) => request.path.endsWith('/media') && request.method === 'POST')!;
    expect(create).toMatchObject({ token_in: 'form', form: { image_url: image && expect.stringContaining('/files/square.jpg') } });
    expect(create.form.media_type).toBeUndefined();
  });

  it('publishes a reel (media_type=REELS, video_url)', async () => {
    const video = await served('clip.mp4', 'video/mp4', { width: 1080, height: 1920 });
    const published = await provider().publish(account, post(outgoingPart('A reel', { media: [video] })));
    expect(await posted()).toEqual([
      expect.objectContaining({ id: published.externalId, media_type: 'VIDEO', media_product_type: 'REELS' }),
    ]);
    expect(await containers()).toEqual([expect.objectContaining({ media_type: 'REELS', status_code: 'PUBLISHED' })]);
  });

  it('a carousel whose child container processing fails once makes that child again and publishes once', async () => {
    await control('POST', '/container-errors', { times: 1 });
    const media = [await served('a.jpg', 'image/jpeg'), await served('b.mp4', 'video/mp4', { width: 1080, height: 1080 })];
    const published = await provider().publish(account, post(outgoingPart('Two in one', { media })));
    const posts = await posted();
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ id: published.externalId, media_type: 'CAROUSEL_ALBUM', media_count: 2, caption: 'Two in one' });
    const made = await containers();
    expect(made.map((container) => [container.media_type, container.status_code])).toEqual([
      ['IMAGE', 'ERROR'],
      ['VIDEO', 'FINISHED'],
      ['IMAGE', 'FINISHED'],
      ['CAROUSEL', 'PUBLISHED'],
    ]);
    expect(made.filter((container) => container.is_carousel_item)).toHaveLength(3);
  });

  it('a container that fails again is a rejected post, nothing published', async () => {
    await control('POST', '/container-errors', { times: 2, subcode: 2207026 });
    const image = await served('bad.jpg', 'image/jpeg');
    const failure = await failureOf(provider().publish(account, post(outgoingPart('Never', { media: [image] }))));
    expect(failure).toMatchObject({ outcome: 'rejected', kind: 'validation', code: 'media_processing_failed_2207026' });
    expect(await posted()).toEqual([]);
  });

  it('a PNG at the URL is refused by Instagram (JPEG only): the container ends in ERROR', async () => {
    const png = await served('plain.png', 'image/png');
    const failure = await failureOf(provider().publish(account, post(outgoingPart('PNG', { media: [png] }))));
    expect(failure).toMatchObject({ outcome: 'rejected', code: 'media_processing_failed_2207026' });
  });

  it('at the 24-hour publishing limit nothing is made; the wait runs until the oldest post leaves the window', async () => {
    const image = await served('one.jpg', 'image/jpeg');
    await provider().publish(account, post(outgoingPart('First', { media: [image] })));
    await control('POST', '/quota', { quota_total: 1 });
    const before = (await containers()).length;
    const failure = await failureOf(provider().publish(account, post(outgoingPart('Second', { media: [image] }))));
    expect(failure).toMatchObject({ outcome: 'retryable', code: 'provider_rate_limited' });
    const wait = failure.outcome === 'retryable' ? failure.retryAfterMs! : 0;
    expect(wait).toBeGreaterThan(86_000_000);
    expect(wait).toBeLessThanOrEqual(86_400_000);
    expect(await containers()).toHaveLength(before);
  });

  it('media_publish past the limit (code 9, subcode 2207042) is a rate limit too', async () => {
    await control('POST', '/failures', {
      path: `/${INSTAGRAM_API_VERSION}/${userId}/media_publish`,
      status: 400,
      body: { error: { message: 'You reached maximum number of posts', type: 'OAuthException', code: 9, error_subcode: 2207042 } },
    });
    const image = await served('limit.jpg', 'image/jpeg');
    const failure = await failureOf(provider().publish(account, post(outgoingPart('Limit', { media: [image] }))));
    expect(failure).toMatchObject({ outcome: 'retryable', code: 'provider_rate_limited', retryAfterMs: 3_600_000 });
  });

  it('a spam restriction (code 4, subcode 2207051) is a policy refusal, not a rate limit', async () => {
    await control('POST', '/failures', {
      path: `/${INSTAGRAM_API_VERSION}/${userId}/media_publish`,
      status: 400,
      body: { error: { message: 'We restrict certain activity', type: 'OAuthException', code: 4, error_subcode: 2207051 } },
    });
    const image = await served('spam.jpg', 'image/jpeg');
    const failure = await failureOf(provider().publish(account, post(outgoingPart('Spam?', { media: [image] }))));
    expect(failure).toMatchObject({ outcome: 'rejected', kind: 'policy' });
  });

  it('a server error at media_publish (code -1) is ambiguous: the post may exist', async () => {
    await control('POST', '/failures', {
      path: `/${INSTAGRAM_API_VERSION}/${userId}/media_publish`,
      status: 400,
      body: { error: { message: 'Instagram server error', type: 'OAuthException', code: -1, error_subcode: 2207001 } },
    });
    const image = await served('server.jpg', 'image/jpeg');
    const failure = await failureOf(provider().publish(account, post(outgoingPart('Server', { media: [image] }))));
    expect(failure).toMatchObject({ outcome: 'ambiguous' });
  });

  it('posts the first comment after publishing; a failed comment leaves the post published', async () => {
    const image = await served('c.jpg', 'image/jpeg');
    const published = await provider().publish(
      account,
      post(outgoingPart('With a comment', { media: [image] }), { first_comment: '#first' }),
    );
    expect(await comments()).toEqual([expect.objectContaining({ media_id: published.externalId, message: '#first' })]);

    await control('POST', '/failures', { path: `/${INSTAGRAM_API_VERSION}/${published.externalId}/comments`, status: 500 });
    const again = await provider().publish(account, post(outgoingPart('Comment fails', { media: [image] }), { first_comment: '#second' }));
    expect(again.externalId).not.toBe('');
    expect((await posted()).map((media) => media.id)).toContain(again.externalId);
  });

  it('refuses without any call: a caption alone, an image outside 4:5–1.91:1, a first comment over 2,200 characters', async () => {
    const provider0 = provider();
    expect(await failureOf(provider0.publish(account, post(outgoingPart('Text alone'))))).toMatchObject({
      outcome: 'rejected',
      code: 'media_required',
    });
    const tall = await served('tall.jpg', 'image/jpeg', { width: 1080, height: 1920 });
    expect(await failureOf(provider0.publish(account, post(outgoingPart('Tall', { media: [tall] }))))).toMatchObject({
      code: 'aspect_ratio_unsupported',
    });
    const fine = await served('fine.jpg', 'image/jpeg');
    expect(
      await failureOf(
        provider0.publish(account, post(outgoingPart('Long comment', { media: [fine] }), { first_comment: 'x'.repeat(2_201) })),
      ),
    ).toMatchObject({ code: 'first_comment_too_long' });
    expect(await requests()).toEqual([]);
  });

  it('renews a refused token once and repeats the call', async () => {
    const renewed = `tok-${randomUUID()}`;
    await control('POST', '/accounts', { access_token: renewed, username: 'ada.ig', id: userId });
    const expired = { ...account, grant: { accessToken: `gone-${randomUUID()}` }, renewGrant: async () => ({ accessToken: renewed }) };
    const image = await served('r.jpg', 'image/jpeg');
    const published = await provider().publish(expired, post(outgoingPart('Renewed', { media: [image] })));
    expect((await posted()).map((media) => media.id)).toEqual([published.externalId]);
  });

  it('reconciles from the media listing by caption and type, skipping posts other renditions own', async () => {
    const since = new Date();
    const image = await served('f.jpg', 'image/jpeg');
    const sent = post(outgoingPart('Find me', { media: [image] }));
    const published = await provider().publish(account, sent);
    expect(await provider().findPost(account, sent, since)).toMatchObject({ externalId: published.externalId });
    expect(await provider().findPost(account, { ...sent, ownedElsewhere: [published.externalId] }, since)).toBeNull();
    expect(await provider().findPost(account, post(outgoingPart('Find me', { media: [image, image] })), since)).toBeNull();
  });

  it('reads account metrics and media insights with the current metric names', async () => {
    const image = await served('m.jpg', 'image/jpeg');
    const published = await provider().publish(account, post(outgoingPart('Metrics', { media: [image] })));
    await control('POST', `/posts/${published.externalId}/insights`, { views: 120, likes: 9, comments: 3, shares: 2, saved: 5 });
    expect(await provider().fetchAccountMetrics(account)).toEqual({ followers: 42, following: 7, posts: 1 });
    expect(await provider().fetchPostMetrics(account, [published.externalId, '17999999999999999'])).toEqual([
      { externalId: published.externalId, views: 120, likes: 9, comments: 3, reposts: 2 },
    ]);
    const insights = (await requests()).find((request) => request.path.endsWith('/insights'))!;
    expect(insights.query.metric).toBe('views,likes,comments,shares,saved');
  });
});
