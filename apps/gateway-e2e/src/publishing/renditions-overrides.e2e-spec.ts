import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, locations, schemaUrlFor } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { cancel, inMs, publicationWhen, publishNow, schedule, settled } from '../support/delivery.js';
import { patchPublication, patchRendition, uploadImage } from '../support/publication-media.js';
import { connectSandboxAccount, createPublication, insertSocialAccount } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

/** Contract §4 "Renditions inherit": each account's own version of a scheduled publication. */
describe('publishing: per-account versions (PATCH /publications/{id}/renditions/{rendition_id})', () => {
  const db = testDatabase();

  /** A scheduled thread of two segments, for two sandbox accounts, due in an hour. */
  async function scheduledThread() {
    const tenant = await createTenant();
    const { owner, workspaceId } = tenant;
    const first = await connectSandboxAccount(owner.token, workspaceId, `a_${Date.now()}`);
    const second = await connectSandboxAccount(owner.token, workspaceId, `b_${Date.now()}`);
    const publication = await createPublication(owner.token, workspaceId, { content_profile: 'thread', title: '' });
    const patched = await patchPublication(owner.token, publication.id, {
      expected_revision: 1,
      segments: [{ body: 'Part one' }, { body: 'Part two' }],
    });
    expect(patched.status).toBe(200);
    const scheduled = await schedule(owner.token, publication.id, {
      expected_revision: 2,
      scheduled_at: inMs(3_600_000),
      account_ids: [first.id, second.id],
    });
    expect(scheduled.status).toBe(200);
    const [one, two] = scheduled.body.segments;
    return { ...tenant, publication: scheduled.body, accounts: [first.id, second.id], segments: [one.id, two.id] };
  }

  it('an override replaces the inherited value for that account only; the rendition shows the effective text; revision + 1', async () => {
    const { owner, publication, accounts, segments } = await scheduledThread();
    const [mine, other] = publication.renditions;
    const response = await patchRendition(owner.token, publication.id, mine.id, {
      expected_revision: 3,
      segments: [
        {
          publication_segment_id: segments[1],
          body_override: 'Part two, for this account',
          title_override: '',
          url_override: 'https://example.com/mine',
        },
      ],
      settings: { reply_policy: 'followers' },
    });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'PublicationResponse');
    expect(response.body).toMatchObject({ $schema: schemaUrlFor('PublicationResponse'), revision: 4, status: 'scheduled' });
    const changed = response.body.renditions.find((r: any) => r.social_account_id === accounts[0]);
    const untouched = response.body.renditions.find((r: any) => r.social_account_id === accounts[1]);
    // Same renditions (ids kept), one changed.
    expect([changed.id, untouched.id]).toEqual([mine.id, other.id]);
    expect(changed.settings).toEqual({ reply_policy: 'followers' });
    expect(changed.body).toBe('Part one\n\nPart two, for this account\n\nhttps://example.com/mine');
    expect(
      changed.segments.map((s: any) => [
        s.publication_segment_id,
        s.body,
        s.body_override,
        s.url_override,
        s.title_override,
        s.media_inherited,
      ]),
    ).toEqual([
      [segments[0], 'Part one', '', '', '', true],
      [
        segments[1],
        'Part two, for this account\n\nhttps://example.com/mine',
        'Part two, for this account',
        'https://example.com/mine',
        '',
        true,
      ],
    ]);
    expect(untouched.body).toBe('Part one\n\nPart two');
    expect(untouched.segments.map((s: any) => s.body_override)).toEqual(['', '']);
    // The publication itself is unchanged.
    expect(response.body.segments.map((s: any) => s.body)).toEqual(['Part one', 'Part two']);
  });

  it(
    'a later PATCH of the publication re-renders but keeps the ' + 'overrides of kept segments, and drops those of segments left out',
    async () => {
      const { owner, publication, accounts, segments } = await scheduledThread();
      const mine = publication.renditions[0];
      await patchRendition(owner.token, publication.id, mine.id, {
        expected_revision: 3,
        segments: [
          { publication_segment_id: segments[0], body_override: 'One, mine' },
          { publication_segment_id: segments[1], body_override: 'Two, mine' },
        ],
      });
      const edited = await patchPublication(owner.token, publication.id, {
        expected_revision: 4,
        segments: [{ id: segments[0], body: 'Part one, edited' }, { body: 'A new part' }],
      });
      expect(edited.status).toBe(200);
      const rendition = edited.body.renditions.find((r: any) => r.social_account_id === accounts[0]);
      expect(rendition.id).toBe(mine.id);
      expect(rendition.segments.map((s: any) => [s.publication_segment_id, s.body, s.body_override])).toEqual([
        [segments[0], 'One, mine', 'One, mine'],
        [edited.body.segments[1].id, 'A new part', ''],
      ]);
      const other = edited.body.renditions.find((r: any) => r.social_account_id === accounts[1]);
      expect(other.segments.map((s: any) => s.body)).toEqual(['Part one, edited', 'A new part']);
      // "" (or leaving a member out) goes back to inheriting.
      const back = await patchRendition(owner.token, publication.id, mine.id, {
        expected_revision: 5,
        segments: [{ publication_segment_id: segments[0], body_override: '' }],
      });
      expect(back.body.renditions.find((r: any) => r.id === mine.id).segments[0]).toMatchObject({
        body: 'Part one, edited',
        body_override: '',
      });
    },
  );

  it('publish-now from scheduled keeps the renditions and their overrides; naming targets then is 422', async () => {
    const { owner, publication, accounts, segments } = await scheduledThread();
    const mine = publication.renditions[0];
    await patchRendition(owner.token, publication.id, mine.id, {
      expected_revision: 3,
      segments: [{ publication_segment_id: segments[0], body_override: 'Only here' }],
    });
    const refused = expectProblem(await publishNow(owner.token, publication.id, { expected_revision: 4, account_ids: [accounts[0]] }), 422);
    expect(locations(refused)).toEqual(['body.account_ids']);
    const now = await publishNow(owner.token, publication.id, { expected_revision: 4 });
    expect(now.status).toBe(200);
    expect(now.body.renditions.map((r: any) => r.id)).toEqual(publication.renditions.map((r: any) => r.id));
    expect(now.body.renditions[0].segments[0]).toMatchObject({ body: 'Only here', body_override: 'Only here' });
    const done = await publicationWhen(owner.token, publication.id, settled);
    expect(done.status).toBe('published');
    // Delivered: no more overrides (409 invalid_transition).
    const late = expectProblem(
      await patchRendition(owner.token, publication.id, mine.id, { expected_revision: done.revision, segments: [] }),
      409,
      'invalid_transition',
    );
    expect(late.current_status).toBe('published');
  });

  it(
    'refusals: stale revision 409 (current_revision), unknown, ' +
      'foreign or removed rendition 404, viewer 403, bad input 422, nothing changed',
    async () => {
      const { owner, workspaceId, publication, segments } = await scheduledThread();
      const mine = publication.renditions[0];
      const stale = expectProblem(
        await patchRendition(owner.token, publication.id, mine.id, { expected_revision: 2 }),
        409,
        'revision_conflict',
      );
      expect(stale.current_revision).toBe(3);
      const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
      expectProblem(await patchRendition(viewer.token, publication.id, mine.id, { expected_revision: 3 }), 403);
      expectProblem(await patchRendition(owner.token, publication.id, randomUUID(), { expected_revision: 3 }), 404, 'not_found');
      expectProblem(await patchRendition(owner.token, publication.id, 'not-a-uuid', { expected_revision: 3 }), 404);
      const otherPublication = await createPublication(owner.token, workspaceId);
      expectProblem(await patchRendition(owner.token, otherPublication.id, mine.id, { expected_revision: 1 }), 404);
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ segments: [{ publication_segment_id: randomUUID(), body_override: 'x' }] }, ['body.segments[0].publication_segment_id']],
        [
          { segments: [{ publication_segment_id: segments[0] }, { publication_segment_id: segments[0] }] },
          ['body.segments[1].publication_segment_id'],
        ],
        [{ segments: [{ publication_segment_id: segments[0], body_override: 'x'.repeat(100_001) }] }, ['body.segments[0].body_override']],
        [{ segments: [{ publication_segment_id: segments[0], url_override: 'ftp://example.com' }] }, ['body.segments[0].url_override']],
        [{ segments: [{ publication_segment_id: segments[0], media: [{ media_id: 'x' }] }] }, ['body.segments[0].media[0].media_id']],
        [{ segments: [{ body_override: 'x' }] }, ['body.segments[0].publication_segment_id']],
        [{ segments: [{ publication_segment_id: segments[0], colour: 'red' }] }, ['body.segments[0].colour']],
        [{ settings: [] }, ['body.settings']],
        [{ status: 'published' }, ['body.status']],
      ];
      for (const [body, expected] of cases) {
        const problem = expectProblem(await patchRendition(owner.token, publication.id, mine.id, { expected_revision: 3, ...body }), 422);
        expect(locations(problem)).toEqual(expected);
      }
      expectProblem(await patchRendition(owner.token, publication.id, mine.id, {}), 422);
      // Nothing changed by any refusal.
      expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body.revision).toBe(3);
      // Cancelled: its renditions are gone (404); a draft has none to change.
      expect((await cancel(owner.token, publication.id, { expected_revision: 3 })).status).toBe(200);
      expectProblem(await patchRendition(owner.token, publication.id, mine.id, { expected_revision: 4 }), 404);
    },
  );

  it('an override the network cannot take is 422 network_rules at the rendition, nothing changed', async () => {
    const { owner, workspaceId } = await createTenant();
    const linkedin = await insertSocialAccount(db, workspaceId, owner.id, 'linkedin');
    const publication = await createPublication(owner.token, workspaceId, { title: '' });
    const patched = await patchPublication(owner.token, publication.id, { expected_revision: 1, segments: [{ body: 'Short' }] });
    const scheduled = await schedule(owner.token, publication.id, {
      expected_revision: 2,
      scheduled_at: inMs(3_600_000),
      account_ids: [linkedin],
    });
    expect(scheduled.status).toBe(200);
    const rendition = scheduled.body.renditions[0];
    const refused = expectProblem(
      await patchRendition(owner.token, publication.id, rendition.id, {
        expected_revision: 3,
        segments: [{ publication_segment_id: patched.body.segments[0].id, body_override: 'word '.repeat(700) }],
      }),
      422,
      'network_rules',
    );
    expect(refused.errors).toEqual([{ location: `renditions.${linkedin}.body`, message: expect.stringContaining('3000') }]);
    const after = (await call('GET', `/publications/${publication.id}`, { token: owner.token })).body;
    expect(after.revision).toBe(3);
    expect(after.renditions[0].segments[0]).toMatchObject({ body: 'Short', body_override: '' });
  });

  it("a network without threads joins the segments into one post, and still keeps each segment's override through a PATCH", async () => {
    const { owner, workspaceId } = await createTenant();
    const linkedin = await insertSocialAccount(db, workspaceId, owner.id, 'linkedin');
    const publication = await createPublication(owner.token, workspaceId, { title: '' });
    const patched = await patchPublication(owner.token, publication.id, {
      expected_revision: 1,
      segments: [{ body: 'Alpha' }, { body: 'Beta' }],
    });
    const [alpha, beta] = patched.body.segments.map((s: any) => s.id);
    const scheduled = await schedule(owner.token, publication.id, {
      expected_revision: 2,
      scheduled_at: inMs(3_600_000),
      account_ids: [linkedin],
    });
    const rendition = scheduled.body.renditions[0];
    expect(rendition.body).toBe('Alpha\n\nBeta');
    const overridden = await patchRendition(owner.token, publication.id, rendition.id, {
      expected_revision: 3,
      segments: [{ publication_segment_id: beta, body_override: 'Beta for LinkedIn' }],
    });
    expect(overridden.body.renditions[0].body).toBe('Alpha\n\nBeta for LinkedIn');
    const edited = await patchPublication(owner.token, publication.id, {
      expected_revision: 4,
      segments: [
        { id: alpha, body: 'Alpha, edited' },
        { id: beta, body: 'Beta, edited' },
      ],
    });
    expect(edited.body.renditions[0]).toMatchObject({ id: rendition.id, body: 'Alpha, edited\n\nBeta for LinkedIn' });
    const dropped = await patchPublication(owner.token, publication.id, {
      expected_revision: 5,
      segments: [{ id: alpha, body: 'Alpha only' }, { body: 'Gamma' }],
    });
    expect(dropped.body.renditions[0].body).toBe('Alpha only\n\nGamma');
  });

  it('per-account media: media_inherited false, the part carries them (the effective media delivery reads)', async () => {
    const { owner, workspaceId, publication, segments } = await scheduledThread();
    const image = await uploadImage(owner.token, workspaceId);
    const mine = publication.renditions[0];
    const response = await patchRendition(owner.token, publication.id, mine.id, {
      expected_revision: 3,
      segments: [{ publication_segment_id: segments[1], media: [{ media_id: image.id, alt_text: 'Only for this account' }] }],
    });
    expect(response.status).toBe(200);
    const rendition = response.body.renditions.find((r: any) => r.id === mine.id);
    expect(rendition.segments.map((s: any) => [s.media_inherited, s.media.map((m: any) => [m.id, m.alt_text])])).toEqual([
      [true, []],
      [false, [[image.id, 'Only for this account']]],
    ]);
    const stored = await db.query(`SELECT media FROM publishing.rendition_segments WHERE rendition_id = $1 ORDER BY position`, [mine.id]);
    expect(stored.rows.map((row: any) => row.media)).toEqual([
      [],
      [{ media_id: image.id, alt_text: 'Only for this account', role: 'attachment', display_order: 0, settings: {} }],
    ]);
    const other = response.body.renditions.find((r: any) => r.id !== mine.id);
    expect(other.segments.map((s: any) => s.media)).toEqual([[], []]);
  });
});
