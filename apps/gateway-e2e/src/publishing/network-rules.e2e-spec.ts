import { describe, expect, it } from '@jest/globals';
import { call, eventually, expectProblem } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { inMs, publishNow, schedule } from '../support/delivery.js';
import { patchPublication, uploadImage, uploadVideo } from '../support/publication-media.js';
import { connectSandboxAccount, createPublication, insertSocialAccount } from '../support/publishing.js';
import { createTenant } from '../support/tenancy.js';

/** Contract §4 "Network rules": schedule, publish-now and a PATCH of a scheduled publication check every target's rendition. */
describe('publishing: network rules (422 network_rules)', () => {
  const db = testDatabase();

  const unchanged = async (token: string, id: string, revision: number) => {
    const read = (await call('GET', `/publications/${id}`, { token })).body;
    expect(read).toMatchObject({ revision, status: 'draft', renditions: [] });
  };

  it(
    'the sandbox: more than 4 images, images with a video, alt text over 1,000: ' +
      'one entry per problem at its location, naming the limit; nothing changed',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const account = await connectSandboxAccount(owner.token, workspaceId, `rules_${Date.now()}`);
      const images = await Promise.all(Array.from({ length: 5 }, () => uploadImage(owner.token, workspaceId, 800, 600)));
      const video = await uploadVideo(owner.token, workspaceId);
      const publication = await createPublication(owner.token, workspaceId, { content_profile: 'thread', title: '' });
      const patched = await patchPublication(owner.token, publication.id, {
        expected_revision: 1,
        segments: [
          { body: 'Five images', media: images.map((image) => ({ media_id: image.id })) },
          { body: 'An image and a video', media: [{ media_id: images[0].id }, { media_id: video.id }] },
          { body: 'Long alt text', media: [{ media_id: images[1].id, alt_text: 'a'.repeat(1_001) }] },
        ],
      });
      expect(patched.status).toBe(200);
      const refused = expectProblem(
        await schedule(owner.token, publication.id, { expected_revision: 2, scheduled_at: inMs(3_600_000), account_ids: [account.id] }),
        422,
        'network_rules',
      );
      expect(refused.errors).toEqual([
        { location: `renditions.${account.id}.segments[0].media[4]`, message: expect.stringContaining('at most 4') },
        { location: `renditions.${account.id}.segments[1].media[1]`, message: expect.stringContaining('not both') },
        { location: `renditions.${account.id}.segments[2].media[0].alt_text`, message: expect.stringContaining('at most 1000') },
      ]);
      await unchanged(owner.token, publication.id, 2);
      expectProblem(
        await publishNow(owner.token, publication.id, { expected_revision: 2, account_ids: [account.id] }),
        422,
        'network_rules',
      );
      await unchanged(owner.token, publication.id, 2);
    },
  );

  it(
    'what delivery fixes is no violation: images over the byte and pixel limits, ' + 'a text over the limit where the network threads',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const account = await connectSandboxAccount(owner.token, workspaceId, `fix_${Date.now()}`);
      const big = await uploadImage(owner.token, workspaceId, 4000, 3000);
      const publication = await createPublication(owner.token, workspaceId, {
        content_profile: 'thread',
        title: '',
        source_text: 'A sentence that goes on. '.repeat(60),
      });
      await patchPublication(owner.token, publication.id, { expected_revision: 1, media: [{ media_id: big.id, alt_text: 'Big' }] });
      const scheduled = await schedule(owner.token, publication.id, {
        expected_revision: 2,
        scheduled_at: inMs(3_600_000),
        account_ids: [account.id],
      });
      expect(scheduled.status).toBe(200);
      const parts = scheduled.body.renditions[0].segments;
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) expect([...part.body].length).toBeLessThanOrEqual(500);
      expect(parts[0].media.map((m: any) => m.id)).toEqual([big.id]);
    },
  );

  it('a PATCH of a scheduled publication is checked the same way; a refused one changes nothing', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId, `patch_${Date.now()}`);
    const images = await Promise.all(Array.from({ length: 5 }, () => uploadImage(owner.token, workspaceId, 640, 480)));
    const publication = await createPublication(owner.token, workspaceId);
    await patchPublication(owner.token, publication.id, {
      expected_revision: 1,
      media: images.slice(0, 4).map((image) => ({ media_id: image.id })),
    });
    const scheduled = await schedule(owner.token, publication.id, {
      expected_revision: 2,
      scheduled_at: inMs(3_600_000),
      account_ids: [account.id],
    });
    expect(scheduled.status).toBe(200);
    const refused = expectProblem(
      await patchPublication(owner.token, publication.id, {
        expected_revision: 3,
        title: 'Five now',
        media: images.map((image) => ({ media_id: image.id })),
      }),
      422,
      'network_rules',
    );
    expect(refused.errors).toEqual([
      { location: `renditions.${account.id}.segments[0].media[4]`, message: expect.stringContaining('at most 4') },
    ]);
    const read = (await call('GET', `/publications/${publication.id}`, { token: owner.token })).body;
    expect(read).toMatchObject({ revision: 3, title: 'Hello', status: 'scheduled' });
    expect(read.media).toHaveLength(4);
    expect(read.renditions[0].id).toBe(scheduled.body.renditions[0].id);
  });

  it('networks of their own: media required (Instagram, YouTube), no images on YouTube, a video too long for Bluesky', async () => {
    const { owner, workspaceId } = await createTenant();
    const instagram = await insertSocialAccount(db, workspaceId, owner.id, 'instagram');
    const youtube = await insertSocialAccount(db, workspaceId, owner.id, 'youtube');
    const bluesky = await insertSocialAccount(db, workspaceId, owner.id, 'bluesky');
    const textOnly = await createPublication(owner.token, workspaceId);
    const required = expectProblem(
      await schedule(owner.token, textOnly.id, { expected_revision: 1, scheduled_at: inMs(3_600_000), account_ids: [instagram, youtube] }),
      422,
      'network_rules',
    );
    expect(required.errors).toEqual([
      { location: `renditions.${instagram}.media`, message: expect.stringContaining('instagram') },
      { location: `renditions.${youtube}.media`, message: expect.stringContaining('youtube') },
    ]);
    const image = await uploadImage(owner.token, workspaceId);
    const withImage = await createPublication(owner.token, workspaceId);
    await patchPublication(owner.token, withImage.id, { expected_revision: 1, media: [{ media_id: image.id }] });
    const noImages = expectProblem(
      await schedule(owner.token, withImage.id, { expected_revision: 2, scheduled_at: inMs(3_600_000), account_ids: [youtube] }),
      422,
      'network_rules',
    );
    expect(noImages.errors).toEqual([
      { location: `renditions.${youtube}.segments[0].media[0]`, message: expect.stringContaining('youtube takes no images') },
    ]);
    // A 200 s video: Bluesky takes 180 s at most (its length is known once media has probed it).
    const long = await uploadVideo(owner.token, workspaceId, 200_000);
    const withVideo = await createPublication(owner.token, workspaceId, { title: '' });
    await patchPublication(owner.token, withVideo.id, { expected_revision: 1, media: [{ media_id: long.id }] });
    await eventually(async () => {
      const read = (await call('GET', `/publications/${withVideo.id}`, { token: owner.token })).body;
      expect(read.media[0].duration_ms).toBe(200_000);
    }, 20_000);
    const tooLong = expectProblem(
      await schedule(owner.token, withVideo.id, { expected_revision: 2, scheduled_at: inMs(3_600_000), account_ids: [bluesky] }),
      422,
      'network_rules',
    );
    expect(tooLong.errors).toEqual([
      { location: `renditions.${bluesky}.segments[0].media[0]`, message: expect.stringContaining('at most 180000 ms') },
    ]);
  });
});
