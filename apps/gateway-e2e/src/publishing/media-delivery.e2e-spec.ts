import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { FakeBlueskyBlob, FakeMastodonMedia } from '@social/testing';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { call, expectProblem, locations, RFC3339_MS, schemaUrlFor } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { deliveries, inMs, publicationWhen, schedule, settled } from '../support/delivery.js';
import { blueskyRecords, clearBlueskyFailures, createBlueskyAccount } from '../support/fake-bluesky.js';
import { fakeControl } from '../support/fake-control.js';
import {
  clearMastodonFailures,
  failNextAtMastodon,
  mastodonAccount,
  mastodonAppForSuite,
  mastodonStatuses,
} from '../support/fake-mastodon.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { makeMp4, mp4Bytes, uploadMedia } from '../support/media.js';
import { connectThroughOAuth } from '../support/oauth-account.js';
import { connectSandboxAccount, createPublication } from '../support/publishing.js';
import { createTenant, joinWorkspace, Tenant } from '../support/tenancy.js';

// Photos of 4000×3000 are made, uploaded and re-encoded here: slower than most suites on a busy machine.
jest.setTimeout(180_000);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const mastodonControl = fakeControl('E2E_FAKE_MASTODON_URL', 'the fake Mastodon server');
const blueskyControl = fakeControl('E2E_FAKE_BLUESKY_URL', 'the fake PDS');

/** A 4000×3000 photo as a phone writes it: JPEG with EXIF, GPS position included. */
async function cameraPhoto(): Promise<Buffer> {
  const photo = await sharp({
    create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 8 } },
  })
    .withExif({
      IFD0: { Make: 'E2E Camera', Model: 'Phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
    })
    .jpeg({ quality: 90 })
    .toBuffer();
  const { exif } = await sharp(photo).metadata();
  // The source really carries EXIF with a GPS section (tag 0x8825, either byte order): what must not reach the network.
  expect(exif !== undefined && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])))).toBe(true);
  return photo;
}

const smallImage = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: randomBytes(1)[0], g: 120, b: 200 } } })
    .png()
    .toBuffer();

interface Attach {
  media_id: string;
  alt_text?: string;
  role?: string;
}

/**
 * Delivery with media, end to end: media uploaded to the library through the gateway, attached to a
 * publication (PATCH), scheduled to an account, the scheduler reading each part's media, the media
 * service's storage and analysis, image processing, and the networks (the sandbox, the fake Mastodon
 * server, the fake PDS).
 */
describe('publishing: delivery with media (sandbox, mastodon, bluesky)', () => {
  const db = testDatabase();

  afterEach(async () => {
    await clearMastodonFailures();
    await clearBlueskyFailures();
    await mastodonControl('POST', '/limits', { image_bytes: 16 * 1024 * 1024, video_bytes: 99 * 1024 * 1024, description_length: 1500 });
  });

  /**
   * Attaches the media to a new publication, schedules it to one account and makes its rendition due now.
   * `pastTheRules`: media the API refuses (more than a network takes, an item gone from the library) are
   * written straight into the rendition's part, as if the rules or the library had changed after scheduling:
   * what the network (or delivery) then does is what the test is about.
   */
  async function deliverWith(
    tenant: Tenant,
    accountId: string,
    media: Attach[],
    text = `With media ${randomUUID()}`,
    options: { pastTheRules?: boolean } = {},
  ): Promise<{ publicationId: string; renditionId: string }> {
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: '', source_text: text });
    let revision = draft.revision;
    if (!options.pastTheRules && media.length > 0) {
      const attached = await call('PATCH', `/publications/${draft.id}`, {
        token: tenant.owner.token,
        body: { expected_revision: revision, media },
      });
      expect(attached.status).toBe(200);
      revision = attached.body.revision;
    }
    const scheduled = await schedule(tenant.owner.token, draft.id, {
      expected_revision: revision,
      scheduled_at: inMs(3_600_000),
      account_ids: [accountId],
    });
    expect(scheduled.status).toBe(200);
    const renditionId = scheduled.body.renditions[0].id;
    if (options.pastTheRules) {
      const entries = media.map((entry, index) => ({
        media_id: entry.media_id,
        alt_text: entry.alt_text ?? '',
        role: entry.role ?? 'attachment',
        display_order: index,
        settings: {},
      }));
      await db.query(`UPDATE publishing.rendition_segments SET media = $2 WHERE rendition_id = $1`, [renditionId, JSON.stringify(entries)]);
    }
    await db.query(`UPDATE publishing.renditions SET next_action_at = now() WHERE id = $1`, [renditionId]);
    return { publicationId: draft.id, renditionId };
  }

  /** Holds an item's analysis at `pending` (no worker picks it up: nothing is due) until `analysisEnded`. */
  const analysisPending = (mediaId: string) =>
    db.query(`UPDATE media.media_items SET analysis_status = 'pending', analysis_next_at = NULL WHERE id = $1`, [mediaId]);
  const analysisEnded = (mediaId: string) => db.query(`UPDATE media.media_items SET analysis_status = 'ready' WHERE id = $1`, [mediaId]);

  const renditionOf = async (tenant: Tenant, publicationId: string) =>
    (await call('GET', `/publications/${publicationId}`, { token: tenant.owner.token })).body.renditions[0];
  const sandboxPosts = (token: string, accountId: string, query = '') =>
    call('GET', `/social-accounts/${accountId}/sandbox-posts${query}`, { token });

  describe('sandbox', () => {
    it(
      'receives four 4000×3000 JPEGs with EXIF GPS resized to 2000×1500, ' +
        'at most 1,000,000 bytes, without EXIF; the post log shows every member',
      async () => {
        const tenant = await createTenant();
        const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
        const photos = await Promise.all([0, 1, 2, 3].map(() => cameraPhoto()));
        const items = [];
        for (const [index, photo] of photos.entries())
          items.push(await uploadMedia(tenant.owner.token, tenant.workspaceId, photo, `photo-${index}.jpg`));
        const alts = ['The harbour at dawn', 'Fishing boats', 'A gull on a post', 'Nets drying'];
        const { publicationId, renditionId } = await deliverWith(
          tenant,
          account.id,
          items.map((item, index) => ({ media_id: item.id, alt_text: alts[index] })),
          'Four photos from the harbour',
        );
        const publication = await publicationWhen(tenant.owner.token, publicationId, settled, 60_000);
        const [rendition] = publication.renditions;
        expect(rendition).toMatchObject({ status: 'published', error_code: '' });

        const listed = await sandboxPosts(tenant.owner.token, account.id);
        expect(listed.status).toBe(200);
        expect(listed.body).toEqual({ $schema: schemaUrlFor('SandboxPostList'), posts: [expect.any(Object)], next_cursor: '' });
        const [post] = listed.body.posts;
        expect(post).toEqual({
          id: expect.any(String),
          external_id: rendition.external_id,
          rendition_id: renditionId,
          created_at: expect.stringMatching(RFC3339_MS),
          parts: [{ text: 'Four photos from the harbour', media: expect.any(Array) }],
        });
        expect(post.parts[0].media).toEqual(
          alts.map((alt) => ({
            sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
            mime_type: 'image/jpeg',
            width: 2000,
            height: 1500,
            size: expect.any(Number),
            alt_text: alt,
            exif: false,
          })),
        );
        for (const [index, media] of post.parts[0].media.entries()) {
          expect(media.size).toBeLessThanOrEqual(1_000_000);
          // Re-encoded: never the uploaded bytes.
          expect(media.sha256).not.toBe(sha256(photos[index]));
        }
        // A viewer of the workspace may read it.
        const viewer = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
        expect((await sandboxPosts(viewer.token, account.id)).body).toEqual(listed.body);
      },
    );

    it(
      'pages newest first; bad paging input is 422 at its location; ' +
        'an unknown account and a non-sandbox account are 404; another tenant gets 404',
      async () => {
        const tenant = await createTenant();
        const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
        const image = await uploadMedia(tenant.owner.token, tenant.workspaceId, await smallImage(40, 30), 'small.png');
        const first = await deliverWith(tenant, account.id, [{ media_id: image.id, alt_text: 'first' }], 'first post');
        await publicationWhen(tenant.owner.token, first.publicationId, settled, 30_000);
        const second = await deliverWith(tenant, account.id, [], 'second post');
        await publicationWhen(tenant.owner.token, second.publicationId, settled, 30_000);

        const page1 = await sandboxPosts(tenant.owner.token, account.id, '?limit=1');
        expect(page1.status).toBe(200);
        expect(page1.body.posts.map((post: any) => post.rendition_id)).toEqual([second.renditionId]);
        expect(page1.body.posts[0].parts).toEqual([{ text: 'second post', media: [] }]);
        expect(page1.body.next_cursor).not.toBe('');
        const page2 = await sandboxPosts(tenant.owner.token, account.id, `?limit=1&cursor=${encodeURIComponent(page1.body.next_cursor)}`);
        expect(page2.body.posts.map((post: any) => post.rendition_id)).toEqual([first.renditionId]);
        expect(page2.body.posts[0].parts[0].media).toEqual([
          {
            sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
            mime_type: 'image/png',
            width: 40,
            height: 30,
            size: expect.any(Number),
            alt_text: 'first',
            exif: false,
          },
        ]);
        expect(page2.body.next_cursor).toBe('');

        for (const [query, location] of [
          ['?limit=0', 'query.limit'],
          ['?limit=101', 'query.limit'],
          ['?limit=abc', 'query.limit'],
          ['?cursor=not-a-cursor', 'query.cursor'],
        ]) {
          const response = await sandboxPosts(tenant.owner.token, account.id, query);
          expectProblem(response, 422);
          // Every broken constraint is named, all at the one location.
          expect([...new Set(locations(response.body))]).toEqual([location]);
        }
        expectProblem(await sandboxPosts(tenant.owner.token, randomUUID()), 404);
        expectProblem(await sandboxPosts(tenant.owner.token, 'not-a-uuid'), 404);
        const handle = `e2e-${randomBytes(5).toString('hex')}.bsky.social`;
        await createBlueskyAccount({ handle, password: 'abcd-efgh-ijkl-mnop' });
        const bluesky = await call('POST', '/social-accounts/connect', {
          token: tenant.owner.token,
          body: { workspace_id: tenant.workspaceId, provider: 'bluesky', username: handle, app_password: 'abcd-efgh-ijkl-mnop' },
        });
        expect(bluesky.status).toBe(201);
        expectProblem(await sandboxPosts(tenant.owner.token, bluesky.body.id), 404);

        const intruder = await createTenant();
        await expectTenantIsolation({
          url: `/social-accounts/${account.id}/sandbox-posts`,
          ownerToken: tenant.owner.token,
          intruderToken: intruder.owner.token,
          attempts: [{ method: 'GET', path: `/social-accounts/${account.id}/sandbox-posts?limit=1` }],
        });
      },
    );

    it('waits while a media item is being analysed (no attempt), and delivers once the analysis has ended', async () => {
      const tenant = await createTenant();
      const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
      const image = await uploadMedia(tenant.owner.token, tenant.workspaceId, await smallImage(64, 64), 'analysing.png');
      await analysisPending(image.id);
      const { publicationId, renditionId } = await deliverWith(tenant, account.id, [{ media_id: image.id }]);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const waiting = await renditionOf(tenant, publicationId);
      expect(waiting).toMatchObject({
        status: 'scheduled',
        delivery: expect.objectContaining({ state: 'queued', current_attempt_number: 0 }),
      });
      const [{ media_waiting_since }] = (
        await db.query(`SELECT media_waiting_since FROM publishing.renditions WHERE id = $1`, [renditionId])
      ).rows;
      expect(media_waiting_since).not.toBeNull();
      expect((await sandboxPosts(tenant.owner.token, account.id)).body.posts).toEqual([]);

      await analysisEnded(image.id);
      const done = await publicationWhen(tenant.owner.token, publicationId, settled, 30_000);
      expect(done.renditions[0]).toMatchObject({
        status: 'published',
        delivery: expect.objectContaining({ state: 'live', current_attempt_number: 1 }),
      });
      expect((await sandboxPosts(tenant.owner.token, account.id)).body.posts).toHaveLength(1);
    });

    it(
      'fails media_not_ready when the analysis has not ended 10 minutes after the first try, ' +
        'and media_not_found for an item gone from the library',
      async () => {
        const tenant = await createTenant();
        const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
        const image = await uploadMedia(tenant.owner.token, tenant.workspaceId, await smallImage(32, 32), 'stuck.png');
        await analysisPending(image.id);
        const stuck = await deliverWith(tenant, account.id, [{ media_id: image.id }]);
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        // As if the first try was ten minutes ago.
        await db.query(
          `UPDATE publishing.renditions SET media_waiting_since = now() - interval '10 minutes 1 second', next_action_at = now()
           WHERE id = $1`,
          [stuck.renditionId],
        );
        const failed = await publicationWhen(tenant.owner.token, stuck.publicationId, settled, 30_000);
        expect(failed.status).toBe('failed');
        expect(failed.renditions[0]).toMatchObject({
          status: 'failed',
          error_code: 'media_not_ready',
          error_kind: 'validation',
          delivery: expect.objectContaining({ state: 'rejected', current_attempt_number: 0 }),
        });

        const gone = await deliverWith(tenant, account.id, [{ media_id: randomUUID() }], undefined, { pastTheRules: true });
        const refused = await publicationWhen(tenant.owner.token, gone.publicationId, settled, 30_000);
        expect(refused.renditions[0]).toMatchObject({ status: 'failed', error_code: 'media_not_found', error_kind: 'validation' });
        expect((await sandboxPosts(tenant.owner.token, account.id)).body.posts).toEqual([]);
      },
    );

    it.each([
      ['five images', 5, false, '', 'sandbox_too_many_media'],
      ['an image and a video', 1, true, '', 'sandbox_mixed_media'],
      ['alt text over 1,000 characters', 1, false, 'x'.repeat(1_001), 'sandbox_alt_text_too_long'],
    ])('refuses %s (rejected, validation) and stores nothing', async (_name, images, withVideo, alt, code) => {
      const tenant = await createTenant();
      const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
      const media: Attach[] = [];
      for (let index = 0; index < images; index++)
        media.push({
          media_id: (await uploadMedia(tenant.owner.token, tenant.workspaceId, await smallImage(20 + index, 20), `i${index}.png`)).id,
          alt_text: alt,
        });
      if (withVideo)
        media.push({ media_id: (await uploadMedia(tenant.owner.token, tenant.workspaceId, mp4Bytes(4_000, 20_000), 'clip.mp4')).id });
      const { publicationId } = await deliverWith(tenant, account.id, media, undefined, { pastTheRules: true });
      const done = await publicationWhen(tenant.owner.token, publicationId, settled, 30_000);
      expect(done.renditions[0]).toMatchObject({ status: 'failed', error_code: code, error_kind: 'validation', error_retryable: false });
      expect((await sandboxPosts(tenant.owner.token, account.id)).body.posts).toEqual([]);
    });

    it('a thumbnail or cover is not an attachment', async () => {
      const tenant = await createTenant();
      const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
      const media: Attach[] = [];
      for (let index = 0; index < 4; index++)
        media.push({
          media_id: (await uploadMedia(tenant.owner.token, tenant.workspaceId, await smallImage(30 + index, 30), `a${index}.png`)).id,
        });
      media.push({
        media_id: (await uploadMedia(tenant.owner.token, tenant.workspaceId, await smallImage(50, 50), 'cover.png')).id,
        role: 'cover',
      });
      const { publicationId } = await deliverWith(tenant, account.id, media);
      const done = await publicationWhen(tenant.owner.token, publicationId, settled, 30_000);
      expect(done.renditions[0].status).toBe('published');
      const [post] = (await sandboxPosts(tenant.owner.token, account.id)).body.posts;
      expect(post.parts[0].media.map((item: any) => item.width)).toEqual([30, 31, 32, 33]);
    });
  });

  describe('mastodon', () => {
    const { server, instanceUrl, clientSecret } = mastodonAppForSuite('media');

    async function connectMastodon(tenant: Tenant) {
      const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
      const username = `media_${randomBytes(4).toString('hex')}`;
      const remote = await mastodonAccount({ access_token: tokens.access_token, username });
      const { account } = await connectThroughOAuth(
        tenant,
        'mastodon',
        { client_secret: clientSecret, ...tokens, profile: { id: remote.id, username } },
        { instance_url: instanceUrl },
      );
      expect(account.username).toBe(`${username}@${server}`);
      return { account, remote };
    }
    const mediaOf = async (accountId: string): Promise<FakeMastodonMedia[]> =>
      (await mastodonControl('GET', '/media')).filter((item: FakeMastodonMedia) => item.account_id === accountId);

    it('posts four images with their alt texts (uploaded through /api/v2/media, fitted, no EXIF) in one status', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      const alts = ['One', 'Two', 'Three', 'Four'];
      const media: Attach[] = [];
      for (const [index, alt] of alts.entries())
        media.push({
          media_id: (
            await uploadMedia(
              tenant.owner.token,
              tenant.workspaceId,
              index === 0 ? await cameraPhoto() : await smallImage(300 + index, 200),
              `m${index}.jpg`,
            )
          ).id,
          alt_text: alt,
        });
      const { publicationId, renditionId } = await deliverWith(tenant, account.id, media, 'Four images for mastodon');
      const done = await publicationWhen(tenant.owner.token, publicationId, settled, 60_000);
      expect(done.renditions[0]).toMatchObject({ status: 'published' });
      const statuses = (await mastodonStatuses()).filter((status) => status.account_id === remote.id);
      expect(statuses).toHaveLength(1);
      expect(statuses[0]).toMatchObject({
        text: 'Four images for mastodon',
        idempotency_key: `${renditionId}#0`,
        id: done.renditions[0].external_id,
      });
      const uploaded = await mediaOf(remote.id);
      expect(statuses[0].media_ids).toEqual(uploaded.map((item) => item.id));
      expect(
        uploaded.map((item) => ({
          description: item.description,
          type: item.type,
          exif: item.exif,
          status_id: item.status_id,
          polls_left: item.polls_left,
        })),
      ).toEqual(alts.map((alt) => ({ description: alt, type: 'image', exif: false, status_id: statuses[0].id, polls_left: 0 })));
      // The 4000×3000 photo fits Mastodon's 8,294,400 px: 3325×2493.
      expect(uploaded[0].width * uploaded[0].height).toBeLessThanOrEqual(8_294_400);
      expect(uploaded.slice(1).map((item) => [item.width, item.height])).toEqual([
        [301, 200],
        [302, 200],
        [303, 200],
      ]);
    });

    it('posts a video streamed as it is stored, after the server has processed it (202, then 206 until done)', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      const video = mp4Bytes(4_000, 3 * 1024 * 1024);
      const item = await uploadMedia(tenant.owner.token, tenant.workspaceId, video, 'clip.mp4');
      const { publicationId } = await deliverWith(
        tenant,
        account.id,
        [{ media_id: item.id, alt_text: 'Waves on the shore' }],
        'A video for mastodon',
      );
      const done = await publicationWhen(tenant.owner.token, publicationId, settled, 60_000);
      expect(done.renditions[0].status).toBe('published');
      const [uploaded] = await mediaOf(remote.id);
      expect(uploaded).toMatchObject({
        type: 'video',
        size: video.length,
        sha256: sha256(video),
        mime_type: 'video/mp4',
        description: 'Waves on the shore',
        polls_left: 0,
      });
      const [status] = (await mastodonStatuses()).filter((candidate) => candidate.account_id === remote.id);
      expect(status.media_ids).toEqual([uploaded.id]);
    });

    it("a refused upload (422: alt text over the server's 1,500 characters) rejects the rendition; nothing is posted", async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      const item = await uploadMedia(tenant.owner.token, tenant.workspaceId, await smallImage(100, 100), 'long-alt.png');
      const { publicationId } = await deliverWith(tenant, account.id, [{ media_id: item.id, alt_text: 'y'.repeat(1_501) }], undefined, {
        pastTheRules: true,
      });
      const done = await publicationWhen(tenant.owner.token, publicationId, settled, 30_000);
      expect(done.renditions[0]).toMatchObject({
        status: 'failed',
        error_kind: 'validation',
        error_code: 'provider_rejected',
        error_http_status: 422,
        error_retryable: false,
      });
      expect((await mastodonStatuses()).filter((status) => status.account_id === remote.id)).toEqual([]);
    });

    it('an upload that fails with a 5xx is retried with the delivery: one status in the end', async () => {
      const tenant = await createTenant();
      const { account, remote } = await connectMastodon(tenant);
      const item = await uploadMedia(tenant.owner.token, tenant.workspaceId, await smallImage(120, 80), 'retry.png');
      await failNextAtMastodon({ path: '/api/v2/media', method: 'POST', status: 503 });
      const { publicationId } = await deliverWith(tenant, account.id, [{ media_id: item.id, alt_text: 'Retried' }]);
      const done = await publicationWhen(tenant.owner.token, publicationId, settled, 30_000);
      expect(done.renditions[0]).toMatchObject({
        status: 'published',
        delivery: expect.objectContaining({ state: 'live', current_attempt_number: 2 }),
      });
      const attempts = (await deliveries(tenant.owner.token, publicationId)).body.attempts;
      expect(attempts.map((attempt: any) => [attempt.outcome, attempt.error_code, attempt.http_status])).toEqual([
        ['retry', 'provider_error', 503],
        ['live', '', 0],
      ]);
      const statuses = (await mastodonStatuses()).filter((status) => status.account_id === remote.id);
      expect(statuses).toHaveLength(1);
      expect((await mediaOf(remote.id)).filter((media) => media.status_id === statuses[0].id).map((media) => media.description)).toEqual([
        'Retried',
      ]);
    });
  });

  describe('bluesky', () => {
    async function connectBluesky(tenant: Tenant) {
      const handle = `media-${randomBytes(5).toString('hex')}.bsky.social`;
      const password = 'abcd-efgh-ijkl-mnop';
      const did = await createBlueskyAccount({ handle, password });
      const connected = await call('POST', '/social-accounts/connect', {
        token: tenant.owner.token,
        body: { workspace_id: tenant.workspaceId, provider: 'bluesky', username: handle, app_password: password },
      });
      expect(connected.status).toBe(201);
      return { account: connected.body, did };
    }
    const postsOf = async (did: string) =>
      (await blueskyRecords()).filter((record) => record.did === did && record.collection === 'app.bsky.feed.post');
    const blobsOf = async (did: string): Promise<FakeBlueskyBlob[]> =>
      (await blueskyControl('GET', '/blobs')).filter((blob: FakeBlueskyBlob) => blob.did === did);

    it('posts four images as blobs (each ≤ 1,000,000 bytes) with alt texts and aspect ratios', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      const alts = ['North', 'East', 'South', 'West'];
      const media: Attach[] = [];
      for (const [index, alt] of alts.entries())
        media.push({
          media_id: (
            await uploadMedia(
              tenant.owner.token,
              tenant.workspaceId,
              index === 0 ? await cameraPhoto() : await smallImage(400, 300 + index),
              `b${index}.jpg`,
            )
          ).id,
          alt_text: alt,
        });
      const { publicationId } = await deliverWith(tenant, account.id, media, 'Four images for bluesky');
      const done = await publicationWhen(tenant.owner.token, publicationId, settled, 60_000);
      expect(done.renditions[0].status).toBe('published');
      const [record] = await postsOf(did);
      expect(record.uri).toBe(done.renditions[0].external_id);
      const blobs = await blobsOf(did);
      expect(blobs).toHaveLength(4);
      expect(record.value.embed).toEqual({
        $type: 'app.bsky.embed.images',
        images: alts.map((alt, index) => ({
          alt,
          image: { $type: 'blob', ref: { $link: blobs[index].cid }, mimeType: blobs[index].mimeType, size: blobs[index].size },
          aspectRatio: index === 0 ? { width: 2000, height: 1500 } : { width: 400, height: 300 + index },
        })),
      });
      for (const blob of blobs) expect(blob.size).toBeLessThanOrEqual(1_000_000);
    });

    it('posts a video as app.bsky.embed.video with its alt text and aspect ratio (from the analysis)', async () => {
      const tenant = await createTenant();
      const { account, did } = await connectBluesky(tenant);
      // A real video: its sides come from the media service's analysis.
      const video = makeMp4({ seconds: 2, fps: 25, faststart: true, size: '640x360' });
      const item = await uploadMedia(tenant.owner.token, tenant.workspaceId, video, 'surf.mp4');
      const { publicationId } = await deliverWith(
        tenant,
        account.id,
        [{ media_id: item.id, alt_text: 'Surfers at noon' }],
        'A video for bluesky',
      );
      const done = await publicationWhen(tenant.owner.token, publicationId, settled, 60_000);
      expect(done.renditions[0].status).toBe('published');
      const [record] = await postsOf(did);
      const [blob] = await blobsOf(did);
      expect(blob).toMatchObject({ mimeType: 'video/mp4', size: video.length, sha256: sha256(video) });
      expect(record.value.embed).toEqual({
        $type: 'app.bsky.embed.video',
        video: { $type: 'blob', ref: { $link: blob.cid }, mimeType: 'video/mp4', size: video.length },
        alt: 'Surfers at noon',
        aspectRatio: { width: 640, height: 360 },
      });
    });
  });
});
