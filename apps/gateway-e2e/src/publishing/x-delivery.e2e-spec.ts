import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fakeNetworkEnvironment, waitFor } from '@social/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { call } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { deliveries, publicationWhen, publishNow, settled, startPublishingReplica, type PublishingReplica } from '../support/delivery.js';
import { clearXFailures, failNextAtX, setXProcessing, xAccount, xAppForSuite, xMedia, xTweets } from '../support/fake-x.js';
import { mp4Bytes, uploadMedia } from '../support/media.js';
import { connectThroughOAuth } from '../support/oauth-account.js';
import { createPublication } from '../support/publishing.js';
import { createTenant, type Tenant } from '../support/tenancy.js';

// Media are uploaded, analysed and delivered in segments here; a replica is started and killed.
jest.setTimeout(120_000);

/** Origin of a fake's public API (its control URL minus `/__control`). */
const originOf = (controlUrl: string | undefined) => new URL(controlUrl ?? '').origin;
const MIB = 1024 * 1024;

/**
 * Issue 26's "done when" for X: an account connected through X's OAuth flow (against the fake OAuth network),
 * posts with media delivered through the X adapter to the fake X API (chunked upload, processing, alt text), and a
 * publishing replica killed in the middle of an X media upload leaves no duplicate post.
 */
describe('publishing: delivery to X (OAuth connect, media, a replica killed mid-upload)', () => {
  const db = testDatabase();
  const app = xAppForSuite();

  afterEach(async () => {
    await clearXFailures();
    await setXProcessing({ polls: 2, check_after_secs: 1, fail_next: false });
  });

  /** An X account connected through the OAuth flow; the fake X API knows its access token. */
  async function connectX(tenant: Tenant) {
    const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
    const username = `ada_${randomBytes(4).toString('hex')}`;
    const remote = await xAccount({ access_token: tokens.access_token, username, name: 'Ada' });
    const { authorizationUrl, account } = await connectThroughOAuth(tenant, 'x', {
      client_secret: app.clientSecret,
      ...tokens,
      profile: { data: { id: remote.id, username, name: 'Ada' } },
    });
    expect(new URL(authorizationUrl).searchParams.get('scope')).toBe(
      'tweet.read tweet.write users.read media.write follows.write offline.access',
    );
    expect(account).toMatchObject({ platform: 'x', username, status: 'active' });
    return { account, remote, username };
  }

  /** A draft with this text and these media attached. */
  async function draftWith(tenant: Tenant, text: string, media: Array<{ media_id: string; alt_text?: string }>) {
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: '', source_text: text });
    const attached = await call('PATCH', `/publications/${draft.id}`, {
      token: tenant.owner.token,
      body: { expected_revision: draft.revision, media },
    });
    expect(attached.status).toBe(200);
    return attached.body;
  }

  const tweetsOf = async (remoteId: string) => (await xTweets()).filter((tweet) => tweet.author_id === remoteId);

  it(
    'connects through OAuth, then publishes an image with its alt text and a video: each live once, ' +
      'uploaded in segments, the video processed before the post',
    async () => {
      const tenant = await createTenant();
      const { account, remote, username } = await connectX(tenant);
      const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#2a6' } })
        .png()
        .toBuffer();
      const image = await uploadMedia(tenant.owner.token, tenant.workspaceId, png, 'square.png');
      const video = mp4Bytes(4_000, 5 * MIB);
      const clip = await uploadMedia(tenant.owner.token, tenant.workspaceId, video, 'clip.mp4');

      const imageText = `A green rectangle ${randomUUID()}`;
      const videoText = `A short film ${randomUUID()}`;
      const results = [];
      for (const draft of [
        await draftWith(tenant, imageText, [{ media_id: image.id, alt_text: 'A green rectangle on white' }]),
        await draftWith(tenant, videoText, [{ media_id: clip.id }]),
      ]) {
        expect(
          (await publishNow(tenant.owner.token, draft.id, { expected_revision: draft.revision, account_ids: [account.id] })).status,
        ).toBe(200);
        results.push(await publicationWhen(tenant.owner.token, draft.id, settled, 40_000));
      }
      expect(results.map((publication) => publication.status)).toEqual(['published', 'published']);

      const tweets = await tweetsOf(remote.id);
      expect(tweets.map((tweet) => tweet.text)).toEqual([imageText, videoText]);
      const uploads = (await xMedia()).filter((item) => item.account_id === remote.id);
      expect(tweets.map((tweet) => tweet.media_ids)).toEqual([[uploads[0].id], [uploads[1].id]]);
      expect(uploads[0]).toMatchObject({ media_category: 'tweet_image', state: 'succeeded', alt_text: 'A green rectangle on white' });
      expect(uploads[1]).toMatchObject({
        media_category: 'tweet_video',
        media_type: 'video/mp4',
        total_bytes: video.length,
        state: 'succeeded',
      });
      // 4 MiB segments: the video went in two.
      expect(Object.values(uploads[1].segments)).toEqual([4 * MIB, video.length - 4 * MIB]);

      results.forEach((publication, index) => {
        expect(publication.renditions[0]).toMatchObject({
          platform: 'x',
          status: 'published',
          external_id: tweets[index].id,
          external_url: `https://x.com/${username}/status/${tweets[index].id}`,
        });
      });
    },
  );

  describe('a publishing replica killed during an X media upload', () => {
    let replica: PublishingReplica | undefined;

    afterEach(async () => {
      await replica?.stop();
      replica = undefined;
    });

    it('takes the rendition over once its lease ends, reconciles it at X, and the post is live exactly once', async () => {
      replica = await startPublishingReplica(
        fakeNetworkEnvironment(originOf(process.env.E2E_FAKE_NETWORK_URL), {
          bluesky: originOf(process.env.E2E_FAKE_BLUESKY_URL),
          mastodon: originOf(process.env.E2E_FAKE_MASTODON_URL),
          x: originOf(process.env.E2E_FAKE_X_URL),
        }),
      );
      const pid = replica.child.pid;
      const tenant = await createTenant();
      const { account, remote } = await connectX(tenant);
      const video = mp4Bytes(3_000, 2 * MIB);
      const clip = await uploadMedia(tenant.owner.token, tenant.workspaceId, video, 'held.mp4');
      // Every segment is held 4 s by the fake before it is taken: a window to kill a replica in, mid-upload.
      await failNextAtX({ path: '/2/media/upload/append', method: 'POST', delay_ms: 4_000, times: 6 });
      const texts = Array.from({ length: 6 }, (_, index) => `Held upload ${index} ${randomUUID()}`);
      const drafts = [];
      for (const text of texts) drafts.push(await draftWith(tenant, text, [{ media_id: clip.id }]));
      for (const draft of drafts)
        expect(
          (await publishNow(tenant.owner.token, draft.id, { expected_revision: draft.revision, account_ids: [account.id] })).status,
        ).toBe(200);
      const ids = drafts.map((draft) => draft.id);
      // Wait until the second replica holds a rendition whose upload has begun at X…
      await waitFor(
        'the second replica to be uploading to X',
        async () => {
          const { rows } = await db.query(
            `SELECT count(*)::int AS n FROM publishing.renditions
              WHERE publication_id = ANY($1::uuid[]) AND delivery_state = 'submitted' AND lease_owner LIKE $2`,
            [ids, `%:${pid}:%`],
          );
          const uploading = (await xMedia()).some((item) => item.account_id === remote.id && !item.finalized);
          return rows[0].n > 0 && uploading;
        },
        30_000,
      );
      // …and kill it without warning.
      replica.child.kill('SIGKILL');
      await new Promise((resolve) => replica!.child.once('exit', resolve));

      const done = [];
      for (const id of ids) done.push(await publicationWhen(tenant.owner.token, id, settled, 60_000));
      expect(done.map((publication) => [publication.status, publication.renditions[0].delivery.state])).toEqual(
        ids.map(() => ['published', 'live']),
      );
      // Exactly once at X: one post per rendition, each with its video.
      const tweets = await tweetsOf(remote.id);
      expect(tweets.map((tweet) => tweet.text).sort()).toEqual([...texts].sort());
      for (const tweet of tweets) expect(tweet.media_ids).toHaveLength(1);
      expect(done.map((publication) => publication.renditions[0].external_id).sort()).toEqual(tweets.map((tweet) => tweet.id).sort());
      // The killed replica left an upload unfinished, and its attempt in doubt: reconciled, not blindly resent.
      expect((await xMedia()).some((item) => item.account_id === remote.id && !item.finalized)).toBe(true);
      const attempts = (await Promise.all(ids.map(async (id) => (await deliveries(tenant.owner.token, id)).body.attempts))).flat();
      const interrupted = attempts.filter((attempt: any) => attempt.error_code === 'delivery_interrupted');
      expect(interrupted.length).toBeGreaterThan(0);
      for (const attempt of interrupted) expect(attempt.outcome).toBe('ambiguous');
    });
  });
});
