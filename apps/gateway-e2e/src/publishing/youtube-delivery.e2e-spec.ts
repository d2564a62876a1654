import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { call } from '../support/api.js';
import { deliveries, inMs, publicationWhen, publishNow, schedule, settled } from '../support/delivery.js';
import {
  clearYouTubeFailures,
  failNextAtYouTube,
  interruptYouTubeUploadAt,
  youtubeAccount,
  youtubeApp,
  youtubeSessions,
  youtubeVideos,
} from '../support/fake-youtube.js';
import { mp4Bytes, sha256Of, uploadMedia } from '../support/media.js';
import { connectThroughOAuth } from '../support/oauth-account.js';
import { patchRendition } from '../support/publication-media.js';
import { createPublication } from '../support/publishing.js';
import { createTenant, type Tenant } from '../support/tenancy.js';

// Videos of several MiB are uploaded, analysed and delivered in 16 MiB chunks here.
jest.setTimeout(120_000);

const MIB = 1024 * 1024;

/**
 * Issue 27's "done when" for YouTube: a Google account connected through OAuth (every channel an account), a video
 * from the library delivered through the resumable upload with its title, privacy and tags, an upload interrupted
 * halfway resumed in its own session (one video, the same bytes), and a spent quota held as a rate limit.
 */
describe('publishing: delivery to YouTube (OAuth connect, channels, resumable upload)', () => {
  const app = youtubeApp();

  afterEach(async () => {
    await clearYouTubeFailures();
  });

  /** Two channels of one Google account connected through OAuth; the fake YouTube API knows the access token. */
  async function connectYouTube(tenant: Tenant) {
    const tokens = { access_token: `ya29.${randomUUID()}`, refresh_token: `1//${randomUUID()}` };
    const handle = `@ada${randomUUID().slice(0, 6)}`;
    const { channels } = await youtubeAccount({
      access_token: tokens.access_token,
      channels: [{ title: 'Ada Builds', handle, subscribers: 10 }, { title: 'Ada Brand' }],
    });
    const { authorizationUrl, account } = await connectThroughOAuth(tenant, 'youtube', {
      client_secret: app.clientSecret,
      ...tokens,
      profile: { items: [{ id: channels[0], snippet: { title: 'Ada Builds', customUrl: handle } }] },
    });
    expect(new URL(authorizationUrl).origin).toBe('https://accounts.google.com');
    expect(account).toMatchObject({ platform: 'youtube', username: handle, display_name: 'Ada Builds', status: 'active' });
    const listed = await call('GET', `/social-accounts?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token });
    const youtube = listed.body.accounts.filter((candidate: any) => candidate.platform === 'youtube');
    expect(youtube.map((candidate: any) => candidate.username).sort()).toEqual([handle, 'Ada Brand'].sort());
    return { account, channels };
  }

  /** A scheduled publication of `video` to `accountId` whose rendition carries `settings`, then published now. */
  async function publishVideo(tenant: Tenant, accountId: string, title: string, text: string, mediaId: string, settings: object) {
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title, source_text: text });
    const attached = await call('PATCH', `/publications/${draft.id}`, {
      token: tenant.owner.token,
      body: { expected_revision: draft.revision, media: [{ media_id: mediaId }] },
    });
    expect(attached.status).toBe(200);
    const scheduled = await schedule(tenant.owner.token, draft.id, {
      expected_revision: attached.body.revision,
      scheduled_at: inMs(3_600_000),
      account_ids: [accountId],
    });
    expect(scheduled.status).toBe(200);
    const rendition = scheduled.body.renditions[0];
    const patched = await patchRendition(tenant.owner.token, draft.id, rendition.id, {
      expected_revision: scheduled.body.revision,
      settings,
    });
    expect(patched.status).toBe(200);
    expect((await publishNow(tenant.owner.token, draft.id, { expected_revision: patched.body.revision })).status).toBe(200);
    return publicationWhen(tenant.owner.token, draft.id, settled, 60_000);
  }

  it('connects every channel, then uploads a library video with its title, privacy and tags: one video, the same bytes', async () => {
    const tenant = await createTenant();
    const { account, channels } = await connectYouTube(tenant);
    const bytes = mp4Bytes(20_000, 3 * MIB);
    const clip = await uploadMedia(tenant.owner.token, tenant.workspaceId, bytes, 'clip.mp4');
    const title = `Launch day ${randomUUID().slice(0, 8)}`;
    const done = await publishVideo(tenant, account.id, title, 'What we built this week', clip.id, {
      privacy_status: 'unlisted',
      tags: ['launch', 'open source'],
      made_for_kids: false,
    });
    expect(done.status).toBe('published');
    const made = (await youtubeVideos()).find((video) => video.title === title)!;
    expect(made).toMatchObject({
      channel_id: channels[0],
      description: 'What we built this week',
      privacy_status: 'unlisted',
      tags: ['launch', 'open source'],
      made_for_kids: false,
      size: bytes.length,
      sha256: sha256Of(bytes),
    });
    expect(done.renditions[0]).toMatchObject({
      platform: 'youtube',
      status: 'published',
      external_id: made.id,
      external_url: `https://www.youtube.com/watch?v=${made.id}`,
    });
  });

  it('resumes an upload interrupted halfway in the same session: exactly one video, bytes identical', async () => {
    const tenant = await createTenant();
    const { account } = await connectYouTube(tenant);
    const bytes = mp4Bytes(30_000, 20 * MIB);
    const clip = await uploadMedia(tenant.owner.token, tenant.workspaceId, bytes, 'long.mp4');
    // Halfway through the first 16 MiB chunk: the fake keeps whole 256 KiB units and closes the connection.
    await interruptYouTubeUploadAt(Math.floor(bytes.length / 2) + 100_000);
    const title = `Interrupted ${randomUUID().slice(0, 8)}`;
    const done = await publishVideo(tenant, account.id, title, 'Resumed, not restarted', clip.id, {});
    expect(done.status).toBe('published');
    const made = (await youtubeVideos()).filter((video) => video.title === title);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ size: bytes.length, sha256: sha256Of(bytes), privacy_status: 'public' });
    const sessions = (await youtubeSessions()).filter((session) => session.total === bytes.length);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ video_id: made[0].id, interruptions: 1, status_queries: 1 });
    expect(done.renditions[0].external_id).toBe(made[0].id);
  });

  it('holds a rendition whose upload met a spent quota as a rate limit, creating nothing', async () => {
    const tenant = await createTenant();
    const { account } = await connectYouTube(tenant);
    const clip = await uploadMedia(tenant.owner.token, tenant.workspaceId, mp4Bytes(2_000, 64 * 1024), 'quota.mp4');
    await failNextAtYouTube({
      path: '/upload/youtube/v3/videos',
      method: 'POST',
      status: 403,
      body: { error: { code: 403, message: 'quota', errors: [{ reason: 'quotaExceeded', domain: 'youtube.quota', message: 'quota' }] } },
      times: 20,
    });
    const title = `Over quota ${randomUUID().slice(0, 8)}`;
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title, source_text: 'Not today' });
    const attached = await call('PATCH', `/publications/${draft.id}`, {
      token: tenant.owner.token,
      body: { expected_revision: draft.revision, media: [{ media_id: clip.id }] },
    });
    expect(
      (await publishNow(tenant.owner.token, draft.id, { expected_revision: attached.body.revision, account_ids: [account.id] })).status,
    ).toBe(200);
    // The first attempt is held until midnight Pacific Time: a retry with the wait, no video.
    await waitFor(
      'the attempt refused for the quota',
      async () =>
        ((await deliveries(tenant.owner.token, draft.id)).body.attempts ?? []).some(
          (attempt: any) => attempt.error_code === 'provider_rate_limited' && attempt.http_status === 429 && attempt.outcome === 'retry',
        ),
      40_000,
    );
    const held = (await call('GET', `/publications/${draft.id}`, { token: tenant.owner.token })).body;
    expect(held.status).not.toBe('published');
    expect((await youtubeVideos()).some((video) => video.title === title)).toBe(false);
  });
});
