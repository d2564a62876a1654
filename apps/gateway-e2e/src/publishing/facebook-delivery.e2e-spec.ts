import { afterEach, describe, expect, it } from '@jest/globals';
import type { FakeFacebookPhoto, FakeFacebookPost, FakeFacebookRequest, FakeFacebookVideo, ScriptedFailure } from '@social/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { call } from '../support/api.js';
import { deliveries, publicationWhen, publishNow, settled } from '../support/delivery.js';
import { fakeControl } from '../support/fake-control.js';
import { approveAtNetwork } from '../support/fake-network.js';
import { mp4Bytes, uploadMedia } from '../support/media.js';
import { connectThroughOAuth, providerAppForSuite } from '../support/oauth-account.js';
import { createPublication } from '../support/publishing.js';
import { createTenant, type Tenant } from '../support/tenancy.js';

/** The fake Graph API for Pages global setup starts (E2E_FAKE_FACEBOOK_URL is its control API). */
const facebook = fakeControl('E2E_FAKE_FACEBOOK_URL', 'the fake Facebook Graph API');
const VERSION = 'v27.0';
const postsOf = async (pageId: string): Promise<FakeFacebookPost[]> =>
  ((await facebook('GET', '/posts')) as FakeFacebookPost[]).filter((post) => post.page_id === pageId);
const failNextAtFacebook = (failure: ScriptedFailure) => facebook('POST', '/failures', failure);

/**
 * The delivery engine against the Facebook Pages adapter, end to end: a person connected through the OAuth fake
 * (their short-lived token traded at the fake Graph API for a long-lived one), every Page they manage an account of
 * its own holding its own Page token, then posts, photos and a video published to those Pages.
 */
describe('publishing: delivery to facebook pages (engine + adapter against the fake Graph API)', () => {
  const clientSecret = `fb-secret-${randomUUID()}`;
  providerAppForSuite('facebook', { clientId: `fb-delivery-${randomUUID().slice(0, 8)}`, clientSecret });

  afterEach(async () => {
    await facebook('DELETE', '/failures');
  });

  /** A person managing two Pages at the fake, connected by `tenant`: both Pages' accounts. */
  async function connectPages(tenant: Tenant) {
    const personId = String(10_000_000 + randomBytes(3).readUIntBE(0, 3));
    const tag = randomBytes(4).toString('hex');
    const pages = [
      { name: 'Analytical Engines', username: `engines_${tag}`, access_token: `page-a-${randomUUID()}` },
      { name: 'Difference Engines', access_token: `page-b-${randomUUID()}` },
    ];
    const registered = await facebook('POST', '/users', { id: personId, name: 'Ada Lovelace', pages });
    const pageIds: string[] = registered.pages.map((page: { id: string }) => page.id);
    const approval = () => {
      const shortLived = `fb-short-${randomUUID()}`;
      return { client_secret: clientSecret, access_token: shortLived, profile: { id: personId, name: 'Ada Lovelace' } };
    };
    const { authorizationUrl, account } = await connectThroughOAuth(tenant, 'facebook', approval());
    expect(new URL(authorizationUrl).searchParams.get('scope')).toBe(
      'public_profile,pages_show_list,pages_read_engagement,pages_manage_posts,publish_video,read_insights',
    );
    // The callback answers the first Page; the person's own profile is never an account.
    expect(account).toMatchObject({ platform: 'facebook', username: `engines_${tag}`, display_name: 'Analytical Engines' });
    const listed = await call('GET', `/social-accounts?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token });
    const accounts = listed.body.accounts.filter((item: { platform: string }) => item.platform === 'facebook');
    expect(accounts.map((item: { username: string; display_name: string }) => [item.username, item.display_name]).sort()).toEqual(
      [
        [`engines_${tag}`, 'Analytical Engines'],
        [pageIds[1], 'Difference Engines'],
      ].sort(),
    );
    const byUsername = (username: string) => accounts.find((item: { username: string }) => item.username === username);
    return { personId, pageIds, approval, first: byUsername(`engines_${tag}`), second: byUsername(pageIds[1]) };
  }

  async function publishTo(tenant: Tenant, publication: { id: string; revision: number }, accountIds: string[]) {
    const started = await publishNow(tenant.owner.token, publication.id, {
      expected_revision: publication.revision,
      account_ids: accountIds,
    });
    expect(started.status).toBe(200);
    return publicationWhen(tenant.owner.token, publication.id, settled, 40_000);
  }

  it("connects every Page as an account (again: the same accounts), and each Page's post goes out with its own token", async () => {
    const tenant = await createTenant();
    const { pageIds, approval, first, second } = await connectPages(tenant);

    // Connecting again updates the same two accounts.
    const started = await call('POST', '/social-accounts/connect', {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId, provider: 'facebook' },
    });
    const code = await approveAtNetwork(started.body.authorization_url, approval());
    const again = await call('GET', `/social-accounts/callback/facebook?${new URLSearchParams({ code, state: started.body.state })}`, {
      token: tenant.owner.token,
    });
    expect([200, 201]).toContain(again.status);
    expect(again.body.id).toBe(first.id);
    const listed = await call('GET', `/social-accounts?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token });
    expect(listed.body.accounts.map((item: { id: string }) => item.id).sort()).toEqual([first.id, second.id].sort());

    await facebook('DELETE', '/requests');
    const text = `Shipping to our Pages ${randomUUID()}`;
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: '', source_text: text });
    const publication = await publishTo(tenant, draft, [first.id, second.id]);
    expect(publication.status).toBe('published');
    for (const pageId of pageIds) {
      const posts = await postsOf(pageId);
      expect(posts).toEqual([expect.objectContaining({ message: text, type: 'status' })]);
      const rendition = publication.renditions.find((item: { external_id: string }) => item.external_id === posts[0].id);
      expect(rendition).toMatchObject({
        platform: 'facebook',
        status: 'published',
        external_url: `https://www.facebook.com/${pageId}/posts/${posts[0].id.split('_')[1]}`,
      });
    }
    // Graph takes a Page's feed only from that Page's token (the fake refuses any other): each was posted with its own.
    const feeds = ((await facebook('GET', '/requests')) as FakeFacebookRequest[]).filter((request) => request.path.endsWith('/feed'));
    expect(feeds.map((request) => [request.path, request.token_of]).sort()).toEqual(
      pageIds.map((pageId) => [`/${VERSION}/${pageId}/feed`, `page:${pageId}`]).sort(),
    );

    // Another tenant sees neither Page's account.
    const intruder = await createTenant();
    for (const account of [first, second]) {
      expect([403, 404]).toContain((await call('GET', `/social-accounts/${account.id}`, { token: intruder.owner.token })).status);
    }
  });

  it('publishes two library photos as one post (unpublished uploads, attached) and a video through the upload phases', async () => {
    const tenant = await createTenant();
    const { pageIds, first } = await connectPages(tenant);
    const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#26a' } })
      .png()
      .toBuffer();
    const images = [
      await uploadMedia(tenant.owner.token, tenant.workspaceId, png, 'one.png'),
      await uploadMedia(tenant.owner.token, tenant.workspaceId, png, 'two.png'),
    ];
    const clip = await uploadMedia(tenant.owner.token, tenant.workspaceId, mp4Bytes(4_000, 64 * 1024), 'clip.mp4');
    const draftWith = async (text: string, media: Array<{ media_id: string; alt_text?: string }>) => {
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: '', source_text: text });
      const attached = await call('PATCH', `/publications/${draft.id}`, {
        token: tenant.owner.token,
        body: { expected_revision: draft.revision, media },
      });
      expect(attached.status).toBe(200);
      return attached.body;
    };
    const albumText = `Two blue rectangles ${randomUUID()}`;
    const videoText = `A short film ${randomUUID()}`;
    const album = await publishTo(
      tenant,
      await draftWith(albumText, [
        { media_id: images[0].id, alt_text: 'The first rectangle' },
        { media_id: images[1].id, alt_text: 'The second rectangle' },
      ]),
      [first.id],
    );
    const film = await publishTo(tenant, await draftWith(videoText, [{ media_id: clip.id }]), [first.id]);
    expect([album.status, film.status]).toEqual(['published', 'published']);

    const posts = await postsOf(pageIds[0]);
    expect(posts.map((post) => [post.type, post.message, post.media_count])).toEqual([
      ['album', albumText, 2],
      ['video', videoText, 1],
    ]);
    const photos = (await facebook('GET', '/photos')) as FakeFacebookPhoto[];
    expect(posts[0].photo_ids.map((id) => photos.find((photo) => photo.id === id))).toEqual([
      expect.objectContaining({ published: false, alt_text: 'The first rectangle', attached_to: posts[0].id }),
      expect.objectContaining({ published: false, alt_text: 'The second rectangle', attached_to: posts[0].id }),
    ]);
    const video = ((await facebook('GET', '/videos')) as FakeFacebookVideo[]).find((item) => item.id === posts[1].video_id)!;
    expect(video).toMatchObject({ finished: true, received: video.file_size });
    expect(video.file_size).toBeGreaterThan(64 * 1024);
    expect(album.renditions[0]).toMatchObject({ status: 'published', external_id: posts[0].id });
    expect(film.renditions[0]).toMatchObject({
      status: 'published',
      external_id: video.id,
      external_url: `https://www.facebook.com/${pageIds[0]}/videos/${video.id}/`,
    });
  });

  it('a Page rate limit is waited out; a lost answer is found among the Page posts; a revoked token fails: one post each', async () => {
    const tenant = await createTenant();
    const { pageIds, first } = await connectPages(tenant);
    const feed = `/${VERSION}/${pageIds[0]}/feed`;
    await failNextAtFacebook({
      path: feed,
      method: 'POST',
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { message: 'Page request limit reached', type: 'OAuthException', code: 32, fbtrace_id: 'e2e' } },
    });
    const busy = await publishTo(
      tenant,
      await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Busy ${randomUUID()}` }),
      [first.id],
    );
    expect(busy.status).toBe('published');
    expect((await deliveries(tenant.owner.token, busy.id)).body.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'retry', error_code: 'provider_rate_limited', http_status: 429 }),
      expect.objectContaining({ attempt: 2, outcome: 'live' }),
    ]);

    await failNextAtFacebook({ path: feed, method: 'POST', drop_after_handling: true });
    const lost = await publishTo(
      tenant,
      await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Lost ${randomUUID()}` }),
      [first.id],
    );
    const posts = await postsOf(pageIds[0]);
    expect(posts).toHaveLength(2);
    expect(lost.status).toBe('published');
    expect(lost.renditions[0]).toMatchObject({ status: 'published', external_id: posts[1].id });
    expect((await deliveries(tenant.owner.token, lost.id)).body.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'ambiguous', error_code: 'provider_connection_lost' }),
    ]);

    // A revoked Page token (code 190) fails the delivery as an authorization to renew, creating nothing.
    await failNextAtFacebook({
      path: feed,
      method: 'POST',
      status: 400,
      body: {
        error: { message: 'Error validating access token', type: 'OAuthException', code: 190, error_subcode: 460, fbtrace_id: 'e2e' },
      },
    });
    const refused = await publishTo(
      tenant,
      await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Revoked ${randomUUID()}` }),
      [first.id],
    );
    expect(refused.status).toBe('failed');
    expect((await deliveries(tenant.owner.token, refused.id)).body.attempts).toEqual([
      expect.objectContaining({ attempt: 1, error_code: 'provider_auth_rejected' }),
    ]);
    expect(await postsOf(pageIds[0])).toHaveLength(2);
  });
});
