import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { FakeTikTokPost, FakeTikTokTask } from '@social/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { call } from '../support/api.js';
import { deliveries, inMs, publicationWhen, publishNow, schedule, settled } from '../support/delivery.js';
import { fakeControl } from '../support/fake-control.js';
import { mp4Bytes, sha256Of, uploadMedia } from '../support/media.js';
import { connectThroughOAuth, providerAppForSuite } from '../support/oauth-account.js';
import { patchRendition } from '../support/publication-media.js';
import { createPublication } from '../support/publishing.js';
import { createTenant, type Tenant } from '../support/tenancy.js';

// A 21 MiB video is uploaded to the library, analysed, then delivered in two chunks.
jest.setTimeout(120_000);

const MIB = 1024 * 1024;
/** The fake TikTok global setup starts (E2E_FAKE_TIKTOK_URL is its control API). */
const tiktok = fakeControl('E2E_FAKE_TIKTOK_URL', 'the fake TikTok');
const postsOf = async (openId: string) => ((await tiktok('GET', '/posts')) as FakeTikTokPost[]).filter((post) => post.open_id === openId);
const tasksOf = async (openId: string) => ((await tiktok('GET', '/tasks')) as FakeTikTokTask[]).filter((task) => task.open_id === openId);

/**
 * The delivery engine against the TikTok adapter, end to end: an account connected through TikTok's Login Kit flow
 * (against the OAuth fake), then a video uploaded in chunks and a photo post fetched from its public copy, each
 * published once TikTok's status says so; a privacy level the creator may not use is refused before anything is sent.
 */
describe('publishing: delivery to tiktok (engine + adapter against the fake TikTok)', () => {
  const clientSecret = `tt-secret-${randomUUID()}`;
  providerAppForSuite('tiktok', { clientId: `tt-delivery-${randomUUID().slice(0, 8)}`, clientSecret });

  afterEach(async () => {
    await tiktok('DELETE', '/failures');
  });

  /** A TikTok account connected through the OAuth flow; the fake TikTok knows its token and creator settings. */
  async function connectTikTok(tenant: Tenant, creator: Record<string, unknown> = {}) {
    const tokens = { access_token: `act.${randomUUID()}`, refresh_token: `rft.${randomUUID()}` };
    const openId = `open-${randomBytes(8).toString('hex')}`;
    const username = `ada_${randomBytes(4).toString('hex')}`;
    await tiktok('POST', '/accounts', { ...tokens, open_id: openId, username, display_name: 'Ada', ...creator });
    const { authorizationUrl, account } = await connectThroughOAuth(tenant, 'tiktok', {
      client_secret: clientSecret,
      ...tokens,
      token_response: {
        ...tokens,
        open_id: openId,
        expires_in: 86_400,
        scope: 'user.info.basic,user.info.profile,user.info.stats,video.publish,video.list',
        token_type: 'Bearer',
      },
      profile: {
        data: { user: { open_id: openId, username, display_name: 'Ada', avatar_url: '' } },
        error: { code: 'ok', message: '', log_id: 'e2e' },
      },
    });
    expect(new URL(authorizationUrl).searchParams.get('scope')).toBe(
      'user.info.basic,user.info.profile,user.info.stats,video.publish,video.list',
    );
    expect(account).toMatchObject({ platform: 'tiktok', username, status: 'active' });
    return { account, openId, username };
  }

  /** A draft with this text and these media, scheduled for the account an hour ahead (its rendition editable). */
  async function scheduledFor(tenant: Tenant, accountId: string, text: string, mediaIds: string[]) {
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: '', source_text: text });
    const attached = await call('PATCH', `/publications/${draft.id}`, {
      token: tenant.owner.token,
      body: { expected_revision: draft.revision, media: mediaIds.map((media_id) => ({ media_id })) },
    });
    expect(attached.status).toBe(200);
    const scheduled = await schedule(tenant.owner.token, draft.id, {
      expected_revision: attached.body.revision,
      account_ids: [accountId],
      scheduled_at: inMs(3_600_000),
    });
    expect(scheduled.status).toBe(200);
    return scheduled.body;
  }

  /** The rendition's TikTok settings changed, then published now: the settled publication. */
  async function publishWithSettings(tenant: Tenant, publication: any, settings: Record<string, unknown>) {
    const patched = await patchRendition(tenant.owner.token, publication.id, publication.renditions[0].id, {
      expected_revision: publication.revision,
      settings,
    });
    expect(patched.status).toBe(200);
    expect((await publishNow(tenant.owner.token, publication.id, { expected_revision: patched.body.revision })).status).toBe(200);
    return publicationWhen(tenant.owner.token, publication.id, settled, 60_000);
  }

  it('publishes a library video with the privacy asked: two chunks, status polled to complete, the public post id kept', async () => {
    const tenant = await createTenant();
    const { account, openId, username } = await connectTikTok(tenant);
    const video = mp4Bytes(4_000, 21 * MIB);
    const clip = await uploadMedia(tenant.owner.token, tenant.workspaceId, video, 'clip.mp4');
    const text = `A short film ${randomUUID()}`;
    const scheduled = await scheduledFor(tenant, account.id, text, [clip.id]);
    const publication = await publishWithSettings(tenant, scheduled, { privacy_level: 'FOLLOWER_OF_CREATOR', disable_duet: true });

    expect(publication.status).toBe('published');
    const [task] = await tasksOf(openId);
    expect(task.chunks.map((chunk) => chunk.range)).toEqual([
      `bytes 0-${10 * MIB - 1}/${video.length}`,
      `bytes ${10 * MIB}-${video.length - 1}/${video.length}`,
    ]);
    expect(task.video_sha256).toBe(sha256Of(video));
    expect(task.post_info).toMatchObject({ title: text, privacy_level: 'FOLLOWER_OF_CREATOR', disable_duet: true, disable_comment: false });
    const posts = await postsOf(openId);
    expect(posts).toEqual([expect.objectContaining({ media_type: 'VIDEO', title: text, privacy_level: 'FOLLOWER_OF_CREATOR' })]);
    expect(publication.renditions[0]).toMatchObject({
      platform: 'tiktok',
      status: 'published',
      external_id: posts[0].id,
      external_url: `https://www.tiktok.com/@${username}/video/${posts[0].id}`,
    });
  });

  it('publishes a photo post that TikTok fetches from the public copy (PULL_FROM_URL), public by default', async () => {
    const tenant = await createTenant();
    const { account, openId, username } = await connectTikTok(tenant);
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c35' } })
      .jpeg()
      .toBuffer();
    const image = await uploadMedia(tenant.owner.token, tenant.workspaceId, jpeg, 'square.jpg');
    const text = `A red square ${randomUUID()}`;
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: '', source_text: text });
    const attached = await call('PATCH', `/publications/${draft.id}`, {
      token: tenant.owner.token,
      body: { expected_revision: draft.revision, media: [{ media_id: image.id }] },
    });
    expect(attached.status).toBe(200);
    expect(
      (await publishNow(tenant.owner.token, draft.id, { expected_revision: attached.body.revision, account_ids: [account.id] })).status,
    ).toBe(200);
    const publication = await publicationWhen(tenant.owner.token, draft.id, settled, 60_000);

    expect(publication.status).toBe('published');
    const [task] = await tasksOf(openId);
    expect(task.source_info).toMatchObject({
      source: 'PULL_FROM_URL',
      photo_cover_index: 0,
      photo_images: [expect.stringContaining('/media/public/')],
    });
    const posts = await postsOf(openId);
    expect(posts).toEqual([
      expect.objectContaining({ media_type: 'PHOTO', description: text, media_count: 1, privacy_level: 'PUBLIC_TO_EVERYONE' }),
    ]);
    expect(publication.renditions[0]).toMatchObject({
      status: 'published',
      external_id: posts[0].id,
      external_url: `https://www.tiktok.com/@${username}/photo/${posts[0].id}`,
    });
  });

  it('refuses a privacy level the creator may not use, naming the allowed ones, with nothing sent to TikTok', async () => {
    const tenant = await createTenant();
    const { account, openId } = await connectTikTok(tenant, { privacy_level_options: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'] });
    const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#35c' } })
      .jpeg()
      .toBuffer();
    const image = await uploadMedia(tenant.owner.token, tenant.workspaceId, jpeg, 'blue.jpg');
    const scheduled = await scheduledFor(tenant, account.id, `Not for everyone ${randomUUID()}`, [image.id]);
    const publication = await publishWithSettings(tenant, scheduled, { privacy_level: 'PUBLIC_TO_EVERYONE' });

    expect(publication.status).toBe('failed');
    expect(publication.renditions[0]).toMatchObject({
      status: 'failed',
      error_code: 'privacy_level_option_mismatch',
      error_kind: 'validation',
      error_retryable: false,
      error_message: expect.stringContaining('FOLLOWER_OF_CREATOR, SELF_ONLY'),
    });
    expect((await deliveries(tenant.owner.token, publication.id)).body.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'rejected', error_code: 'privacy_level_option_mismatch' }),
    ]);
    expect(await tasksOf(openId)).toEqual([]);
    expect(await postsOf(openId)).toEqual([]);
  });

  it('another tenant cannot publish to the account: the account is not theirs, nothing reaches TikTok', async () => {
    const owner = await createTenant();
    const { account, openId } = await connectTikTok(owner);
    const other = await createTenant();
    const draft = await createPublication(other.owner.token, other.workspaceId, { title: '', source_text: `Not mine ${randomUUID()}` });
    const refused = await publishNow(other.owner.token, draft.id, { expected_revision: draft.revision, account_ids: [account.id] });
    expect(refused.status).toBe(422);
    expect(await tasksOf(openId)).toEqual([]);
  });
});
