import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, locations, schemaUrlFor } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { inMs, schedule } from '../support/delivery.js';
import { patchPublication, patchRendition, preview, uploadImage } from '../support/publication-media.js';
import { connectSandboxAccount, createPublication, insertSocialAccount } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

/** Contract §4: POST /publications/{id}/preview shows what each network would receive, changing nothing. */
describe('publishing: preview (POST /publications/{id}/preview)', () => {
  const db = testDatabase();

  it(
    'parts after splitting and images as processed per network (resized, ' +
      're-encoded), every problem; viewers may preview; nothing changes',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
      const sandbox = await connectSandboxAccount(owner.token, workspaceId, `preview_${Date.now()}`);
      const mastodon = await insertSocialAccount(db, workspaceId, owner.id, 'mastodon');
      const big = await uploadImage(owner.token, workspaceId, 4000, 3000);
      const small = await uploadImage(owner.token, workspaceId, 640, 480);
      const publication = await createPublication(owner.token, workspaceId, {
        content_profile: 'thread',
        title: '',
        source_text: 'Words that go on and on. '.repeat(30),
      });
      await patchPublication(owner.token, publication.id, {
        expected_revision: 1,
        media: [
          { media_id: big.id, alt_text: 'A wide photo' },
          { media_id: small.id, alt_text: 'x'.repeat(1_200) },
        ],
      });
      const response = await preview(viewer.token, publication.id, { account_ids: [sandbox.id, mastodon] });
      expect(response.status).toBe(200);
      await expectMatchesOwnSchema(response.body, 'PublicationPreview');
      expect(response.body.$schema).toBe(schemaUrlFor('PublicationPreview'));
      const [onSandbox, onMastodon] = response.body.renditions;
      expect(onSandbox).toMatchObject({ social_account_id: sandbox.id, platform: 'sandbox' });
      expect(onSandbox.parts.length).toBeGreaterThan(1);
      for (const part of onSandbox.parts) expect([...part.text].length).toBeLessThanOrEqual(500);
      const [wide, narrow] = onSandbox.parts[0].media;
      // The sandbox: 2,000 px on the long side, at most 1,000,000 bytes, re-encoded (so never the original size).
      expect(wide).toEqual({
        media_id: big.id,
        mime_type: 'image/jpeg',
        width: 2000,
        height: 1500,
        size: expect.any(Number),
        alt_text: 'A wide photo',
      });
      expect(wide.size).toBeLessThanOrEqual(1_000_000);
      expect(narrow).toMatchObject({ media_id: small.id, width: 640, height: 480 });
      expect(onSandbox.parts.slice(1).every((part: any) => part.media.length === 0)).toBe(true);
      expect(onSandbox.problems).toEqual([
        {
          location: `renditions.${sandbox.id}.segments[0].media[1].alt_text`,
          code: 'network_rules',
          message: expect.stringContaining('1000'),
        },
      ]);
      // Mastodon fits images to 8,294,400 pixels; its alt text takes 1,500 characters.
      const [mWide] = onMastodon.parts[0].media;
      expect(mWide.width * mWide.height).toBeLessThanOrEqual(8_294_400);
      expect(mWide.width).toBeGreaterThan(3000);
      expect(onMastodon.problems).toEqual([]);
      // Nothing changed: no renditions, same revision.
      const read = (await call('GET', `/publications/${publication.id}`, { token: owner.token })).body;
      expect(read).toMatchObject({ revision: 2, status: 'draft', renditions: [] });
    },
  );

  it('a scheduled publication previews its renditions, overrides included, by default', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId, `sched_${Date.now()}`);
    const publication = await createPublication(owner.token, workspaceId, { title: '' });
    const patched = await patchPublication(owner.token, publication.id, { expected_revision: 1, segments: [{ body: 'Shared text' }] });
    const scheduled = await schedule(owner.token, publication.id, {
      expected_revision: 2,
      scheduled_at: inMs(3_600_000),
      account_ids: [account.id],
    });
    await patchRendition(owner.token, publication.id, scheduled.body.renditions[0].id, {
      expected_revision: 3,
      segments: [{ publication_segment_id: patched.body.segments[0].id, body_override: 'Just for this account' }],
    });
    const response = await preview(owner.token, publication.id);
    expect(response.status).toBe(200);
    expect(response.body.renditions).toEqual([
      { social_account_id: account.id, platform: 'sandbox', parts: [{ text: 'Just for this account', media: [] }], problems: [] },
    ]);
  });

  it('no target 422; both kinds of target 422; bad input 422; another tenant 404', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId, `none_${Date.now()}`);
    const publication = await createPublication(owner.token, workspaceId);
    expect(locations(expectProblem(await preview(owner.token, publication.id), 422))).toEqual(['body.account_ids']);
    expect(
      locations(expectProblem(await preview(owner.token, publication.id, { account_ids: [account.id], social_set_id: randomUUID() }), 422)),
    ).toEqual(['body.account_ids']);
    expect(locations(expectProblem(await preview(owner.token, publication.id, { account_ids: [] }), 422))).toEqual(['body.account_ids']);
    expect(locations(expectProblem(await preview(owner.token, publication.id, { account_ids: [randomUUID()] }), 422))).toEqual([
      'body.account_ids[0]',
    ]);
    expect(locations(expectProblem(await preview(owner.token, publication.id, { expected_revision: 1 }), 422))).toEqual([
      'body.expected_revision',
    ]);
    const intruder = await createTenant();
    expectProblem(await preview(intruder.owner.token, publication.id, { account_ids: [account.id] }), 404);
    expectProblem(await preview(owner.token, randomUUID(), { account_ids: [account.id] }), 404);
  });
});
