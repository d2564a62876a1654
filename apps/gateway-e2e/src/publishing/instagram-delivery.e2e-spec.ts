import { afterEach, describe, expect, it } from '@jest/globals';
import type { FakeInstagramComment, FakeInstagramContainer, FakeInstagramMedia } from '@social/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { expectProblem } from '../support/api.js';
import { inMs, publicationWhen, publishNow, schedule, settled } from '../support/delivery.js';
import { fakeControl } from '../support/fake-control.js';
import { connectThroughOAuth, providerAppForSuite } from '../support/oauth-account.js';
import { patchPublication, patchRendition, uploadImage } from '../support/publication-media.js';
import { createPublication } from '../support/publishing.js';
import { createTenant, type Tenant } from '../support/tenancy.js';
import { uploadMedia } from '../support/media.js';

/** The fake Instagram API global setup starts (E2E_FAKE_INSTAGRAM_URL is its control API). */
const instagram = fakeControl('E2E_FAKE_INSTAGRAM_URL', 'the fake Instagram API');
const postsOf = async (userId: string): Promise<FakeInstagramMedia[]> =>
  ((await instagram('GET', '/posts')) as FakeInstagramMedia[]).filter((post) => post.account_id === userId);
const containersOf = async (userId: string): Promise<FakeInstagramContainer[]> =>
  ((await instagram('GET', '/containers')) as FakeInstagramContainer[]).filter((container) => container.account_id === userId);

/**
 * The delivery engine against the Instagram adapter, end to end: a professional account connected through the OAuth
 * fake (its short-lived token traded at the fake Instagram API for a long-lived one), media from the library given to
 * Instagram as the platform's public copies, which the fake fetches.
 */
describe('publishing: delivery to instagram (engine + adapter against the fake Instagram API)', () => {
  const clientSecret = `ig-secret-${randomUUID()}`;
  providerAppForSuite('instagram', { clientId: `ig-delivery-${randomUUID().slice(0, 8)}`, clientSecret });

  afterEach(async () => {
    await instagram('DELETE', '/failures');
    await instagram('POST', '/container-errors', { times: 0 });
  });

  async function connectInstagram(tenant: Tenant) {
    const shortLived = `ig-short-${randomUUID()}`;
    const userId = String(17_841_400_000_000_000n + BigInt(randomBytes(4).readUInt32BE()));
    const username = `ada.${randomBytes(4).toString('hex')}`;
    const { account } = await connectThroughOAuth(tenant, 'instagram', {
      client_secret: clientSecret,
      access_token: shortLived,
      token_response: { data: [{ access_token: shortLived, user_id: userId, permissions: 'instagram_business_basic' }] },
      profile: { id: `app-${userId}`, user_id: userId, username, name: 'Ada', profile_picture_url: 'https://scontent.example/a.jpg' },
    });
    expect(account).toMatchObject({ platform: 'instagram', username, status: 'active' });
    return { account, userId };
  }

  async function draftWithImages(tenant: Tenant, text: string, count: number) {
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: text });
    const images = [];
    for (let i = 0; i < count; i++) images.push(await uploadImage(tenant.owner.token, tenant.workspaceId, 1080, 1080));
    const patched = await patchPublication(tenant.owner.token, draft.id, {
      expected_revision: draft.revision,
      media: images.map((image, index) => ({ media_id: image.id, alt_text: `Picture ${index + 1}` })),
    });
    expect(patched.status).toBe(200);
    return patched.body;
  }

  /** Publish-now to the account (or, for a scheduled publication, to the targets it has: `accountId` undefined). */
  async function publishTo(tenant: Tenant, publication: { id: string; revision: number }, accountId?: string) {
    const started = await publishNow(tenant.owner.token, publication.id, {
      expected_revision: publication.revision,
      ...(accountId ? { account_ids: [accountId] } : {}),
    });
    expect(started.status).toBe(200);
    const done = await publicationWhen(tenant.owner.token, publication.id, settled, 30_000);
    return { publication: done, rendition: done.renditions[0] };
  }

  it('an image post goes live once: its copy fetched as JPEG without EXIF, caption, alt text, permalink on the rendition', async () => {
    const tenant = await createTenant();
    const { account, userId } = await connectInstagram(tenant);
    const text = `Shipping to Instagram ${randomUUID()}`;
    const { publication, rendition } = await publishTo(tenant, await draftWithImages(tenant, text, 1), account.id);
    expect(publication.status).toBe('published');
    const posts = await postsOf(userId);
    expect(posts).toEqual([expect.objectContaining({ caption: `Hello\n\n${text}`, media_type: 'IMAGE', media_count: 1 })]);
    // The library's JPEG carries EXIF with GPS tags: what Instagram fetched is the delivered copy, without them.
    expect(posts[0].items).toEqual([expect.objectContaining({ fetched_type: 'image/jpeg', fetched_exif: false, alt_text: 'Picture 1' })]);
    expect(posts[0].items[0].url).toContain('/media/public/');
    expect(rendition).toMatchObject({
      status: 'published',
      external_id: posts[0].id,
      external_url: expect.stringMatching(/^https:\/\/www\.instagram\.com\/p\/\w+\/$/),
    });
  });

  it('a PNG from the library reaches Instagram as a JPEG (Instagram takes no other image type)', async () => {
    const tenant = await createTenant();
    const { account, userId } = await connectInstagram(tenant);
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `PNG ${randomUUID()}` });
    const png = await sharp({ create: { width: 900, height: 900, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    const image = await uploadMedia(tenant.owner.token, tenant.workspaceId, png, 'diagram.png');
    expect(image.mime_type).toBe('image/png');
    const patched = await patchPublication(tenant.owner.token, draft.id, {
      expected_revision: draft.revision,
      media: [{ media_id: image.id }],
    });
    expect(patched.status).toBe(200);
    const { publication } = await publishTo(tenant, patched.body, account.id);
    expect(publication.status).toBe('published');
    const [post] = await postsOf(userId);
    expect(post.items).toEqual([expect.objectContaining({ fetched_type: 'image/jpeg', fetched_exif: false })]);
    expect(post.items[0].url).toContain('/media/public/');
  });

  it('a carousel whose child container processing fails once: that child is made again, and the carousel publishes once', async () => {
    const tenant = await createTenant();
    const { account, userId } = await connectInstagram(tenant);
    await instagram('POST', '/container-errors', { times: 1 });
    const text = `Carousel ${randomUUID()}`;
    const { publication, rendition } = await publishTo(tenant, await draftWithImages(tenant, text, 2), account.id);
    expect(publication.status).toBe('published');
    const posts = await postsOf(userId);
    expect(posts).toEqual([expect.objectContaining({ caption: `Hello\n\n${text}`, media_type: 'CAROUSEL_ALBUM', media_count: 2 })]);
    expect(rendition.external_id).toBe(posts[0].id);
    const containers = await containersOf(userId);
    expect(containers.filter((container) => container.status_code === 'ERROR')).toHaveLength(1);
    expect(containers.filter((container) => container.is_carousel_item)).toHaveLength(3);
    expect(containers.filter((container) => container.media_type === 'CAROUSEL')).toHaveLength(1);
  });

  it("posts the rendition's first comment under the published post", async () => {
    const tenant = await createTenant();
    const { account, userId } = await connectInstagram(tenant);
    const draft = await draftWithImages(tenant, `Commented ${randomUUID()}`, 1);
    const scheduled = await schedule(tenant.owner.token, draft.id, {
      expected_revision: draft.revision,
      scheduled_at: inMs(3_600_000),
      account_ids: [account.id],
    });
    expect(scheduled.status).toBe(200);
    const comment = `First! #${randomBytes(3).toString('hex')}`;
    const patched = await patchRendition(tenant.owner.token, draft.id, scheduled.body.renditions[0].id, {
      expected_revision: scheduled.body.revision,
      settings: { first_comment: comment },
    });
    expect(patched.status).toBe(200);
    const { publication } = await publishTo(tenant, patched.body);
    expect(publication.status).toBe('published');
    const [post] = await postsOf(userId);
    const comments = (await instagram('GET', '/comments')) as FakeInstagramComment[];
    expect(comments.filter((item) => item.media_id === post.id)).toEqual([expect.objectContaining({ message: comment })]);
  });

  it('a text alone is refused at schedule (422 network_rules: Instagram needs media), nothing sent', async () => {
    const tenant = await createTenant();
    const { account, userId } = await connectInstagram(tenant);
    const textOnly = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: 'Words only' });
    const problem = expectProblem(
      await schedule(tenant.owner.token, textOnly.id, { expected_revision: 1, scheduled_at: inMs(3_600_000), account_ids: [account.id] }),
      422,
      'network_rules',
    );
    expect(problem.errors).toEqual([expect.objectContaining({ location: `renditions.${account.id}.media` })]);
    expect(await containersOf(userId)).toEqual([]);
  });
});
