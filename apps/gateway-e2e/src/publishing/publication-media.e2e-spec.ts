import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { baseUrl, call, eventually, expectProblem, locations, schemaUrlFor, withoutSchema } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { inMs, schedule } from '../support/delivery.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { makeMp4, openSession, pngBytes, uploadMedia } from '../support/media.js';
import { patchPublication, patchRendition, preview, uploadImage } from '../support/publication-media.js';
import { connectSandboxAccount, createPublication } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

/** Contract §4 "Media in posts": attaching library items to publications and segments. */
describe('publishing: publications carry media (docs/decisions.md "Attaching", PublicationMedia)', () => {
  const db = testDatabase();

  it(
    'PATCH media and segments[].media: every PublicationMedia member ' + 'filled from the item, in the order sent; renditions inherit them',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const portrait = await uploadImage(owner.token, workspaceId, 1080, 1350);
      const landscape = await uploadImage(owner.token, workspaceId, 1600, 900);
      const video = await uploadMedia(owner.token, workspaceId, makeMp4({ seconds: 4, fps: 25, faststart: false }), 'clip.mp4');
      const publication = await createPublication(owner.token, workspaceId, { content_profile: 'thread' });
      const response = await patchPublication(owner.token, publication.id, {
        expected_revision: 1,
        media: [
          { media_id: portrait.id, alt_text: 'A portrait of a cat' },
          { media_id: landscape.id.toUpperCase(), role: 'cover' },
        ],
        segments: [{ body: 'First part' }, { body: 'Second part', media: [{ media_id: video.id, alt_text: 'A short clip' }] }],
      });
      expect(response.status).toBe(200);
      await expectMatchesOwnSchema(response.body, 'PublicationResponse');
      expect(response.body).toMatchObject({ $schema: schemaUrlFor('PublicationResponse'), revision: 2 });
      expect(response.body.media.map((m: any) => [m.id, m.role, m.display_order, m.url])).toEqual([
        [portrait.id, 'attachment', 0, `${baseUrl()}/media/${portrait.id}/content`],
        [landscape.id, 'cover', 1, `${baseUrl()}/media/${landscape.id}/content`],
      ]);
      // Once media has analysed the images (at once or shortly after), every member holds the item's facts.
      await eventually(async () => {
        const read = await call('GET', `/publications/${publication.id}`, { token: owner.token });
        expect(read.body.media).toEqual([
          {
            id: portrait.id,
            url: `${baseUrl()}/media/${portrait.id}/content`,
            role: 'attachment',
            mime_type: 'image/jpeg',
            original_filename: 'picture.jpg',
            alt_text: 'A portrait of a cat',
            aspect_ratio: '4:5',
            dominant_type: 'image',
            analysis_status: 'ready',
            analysis_error: '',
            poster_thumbnail_url: '',
            public_url_checked_at: expect.any(String),
            public_url_error: expect.any(String),
            public_url_status: expect.any(Number),
            public_url_ready: expect.any(Boolean),
            display_order: 0,
            duration_ms: 0,
            width: 1080,
            height: 1350,
            size: portrait.size,
            thumbnail_timestamp_ms: 0,
            frame_rate: 0,
            settings: {},
          },
          expect.objectContaining({
            id: landscape.id,
            role: 'cover',
            aspect_ratio: '16:9',
            display_order: 1,
            alt_text: '',
            width: 1600,
            height: 900,
          }),
        ]);
      }, 20_000);
      const [first, second] = response.body.segments;
      expect(first.media).toEqual([]);
      expect(second.media).toEqual([
        expect.objectContaining({
          id: video.id,
          role: 'attachment',
          mime_type: 'video/mp4',
          dominant_type: 'video',
          alt_text: 'A short clip',
          display_order: 0,
          size: video.size,
        }),
      ]);
      // The stored shape is a reference, never a copy of the item.
      const stored = await db.query(`SELECT media FROM publishing.publications WHERE id = $1`, [publication.id]);
      expect(stored.rows[0].media).toEqual([
        { media_id: portrait.id, alt_text: 'A portrait of a cat', role: 'attachment', display_order: 0, settings: {} },
        { media_id: landscape.id, alt_text: '', role: 'cover', display_order: 1, settings: {} },
      ]);
      // The video's analysis ends: duration, frame rate and poster reach the publication (durable.media.item.analysed).
      await eventually(async () => {
        const read = await call('GET', `/publications/${publication.id}`, { token: owner.token });
        const attached = read.body.segments[1].media[0];
        expect(attached).toMatchObject({
          analysis_status: 'ready',
          analysis_error: '',
          duration_ms: 4_000,
          frame_rate: 25,
          width: 320,
          height: 240,
          aspect_ratio: '4:3',
          thumbnail_timestamp_ms: expect.any(Number),
          poster_thumbnail_url: expect.stringMatching(new RegExp(`^${baseUrl()}/media/[0-9a-f-]{36}/content$`)),
        });
      }, 20_000);

      // Scheduled: each rendition's parts carry their effective media (publication media on the first part, a segment's with its part).
      const account = await connectSandboxAccount(owner.token, workspaceId, `media_${Date.now()}`);
      const scheduled = await schedule(owner.token, publication.id, {
        expected_revision: 2,
        scheduled_at: inMs(3_600_000),
        account_ids: [account.id],
      });
      expect(scheduled.status).toBe(200);
      const [rendition] = scheduled.body.renditions;
      expect(
        rendition.segments.map((part: any) => [part.media_inherited, part.media.map((m: any) => [m.id, m.role, m.display_order])]),
      ).toEqual([
        [
          true,
          [
            [portrait.id, 'attachment', 0],
            [landscape.id, 'cover', 1],
          ],
        ],
        [true, [[video.id, 'attachment', 0]]],
      ]);
      // The list is passed on as publishing wrote it: the same publication, every media URL absolute, `$schema` first.
      const [single, page] = await Promise.all([
        call('GET', `/publications/${publication.id}`, { token: owner.token }),
        call('GET', `/publications?workspace_id=${workspaceId}`, { token: owner.token }),
      ]);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Object.keys(page.body)[0]).toBe('$schema');
      await expectMatchesOwnSchema(page.body, 'PublicationList');
      expect(page.body.publications).toEqual([withoutSchema(single.body)]);
      expect(page.body.publications[0].renditions[0].segments[0].media[0].url).toBe(`${baseUrl()}/media/${portrait.id}/content`);
    },
  );

  it('a segment entry with an id keeps that segment; one without is new; segments left out go', async () => {
    const { owner, workspaceId } = await createTenant();
    const publication = await createPublication(owner.token, workspaceId, { content_profile: 'thread' });
    const first = await patchPublication(owner.token, publication.id, {
      expected_revision: 1,
      segments: [{ body: 'one' }, { body: 'two' }],
    });
    const [one, two] = first.body.segments;
    const second = await patchPublication(owner.token, publication.id, {
      expected_revision: 2,
      segments: [{ id: two.id, body: 'two, edited' }, { body: 'three' }],
    });
    expect(second.status).toBe(200);
    expect(second.body.segments.map((s: any) => [s.id, s.position, s.body])).toEqual([
      [two.id, 0, 'two, edited'],
      [expect.not.stringMatching(new RegExp(`${one.id}|${two.id}`)), 1, 'three'],
    ]);
    const refused = expectProblem(
      await patchPublication(owner.token, publication.id, {
        expected_revision: 3,
        segments: [{ id: one.id }, { id: two.id }, { id: two.id }],
      }),
      422,
      'validation_failed',
    );
    expect(refused.errors).toEqual([
      { location: 'body.segments[0].id', message: 'is not a segment of this publication', value: one.id },
      { location: 'body.segments[2].id', message: 'is listed twice', value: two.id },
    ]);
  });

  it('unknown, foreign, pending and deleted media are 422 at their exact locations, nothing changed', async () => {
    const { owner, workspaceId } = await createTenant();
    const other = await createTenant();
    const foreign = await uploadImage(other.owner.token, other.workspaceId);
    const pending = await openSession(owner.token, { workspace_id: workspaceId, filename: 'later.png', size: 100 });
    expect(pending.status).toBe(201);
    const deleted = await uploadImage(owner.token, workspaceId);
    expect((await call('DELETE', `/media/${deleted.id}`, { token: owner.token })).status).toBe(204);
    const good = await uploadImage(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    const unknown = randomUUID();
    const refused = expectProblem(
      await patchPublication(owner.token, publication.id, {
        expected_revision: 1,
        title: 'changed',
        media: [{ media_id: good.id }, { media_id: unknown }, { media_id: foreign.id }],
        segments: [{ body: 'a' }, { body: 'b', media: [{ media_id: pending.body.media_id }, { media_id: deleted.id }] }],
      }),
      422,
      'validation_failed',
    );
    expect(refused.errors).toEqual([
      { location: 'body.media[1].media_id', message: expect.any(String), value: unknown },
      { location: 'body.media[2].media_id', message: expect.any(String), value: foreign.id },
      { location: 'body.segments[1].media[0].media_id', message: expect.any(String), value: pending.body.media_id },
      { location: 'body.segments[1].media[1].media_id', message: expect.any(String), value: deleted.id },
    ]);
    const after = await call('GET', `/publications/${publication.id}`, { token: owner.token });
    expect(after.body).toMatchObject({ revision: 1, title: 'Hello', media: [], segments: [] });
  });

  it('bad input: more than 20 media, alt text over 1,500 characters, an unknown role, a malformed id, extra members', async () => {
    const { owner, workspaceId } = await createTenant();
    const image = await uploadImage(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ media: Array.from({ length: 21 }, () => ({ media_id: image.id })) }, ['body.media']],
      [{ media: [{ media_id: image.id, alt_text: 'a'.repeat(1_501) }] }, ['body.media[0].alt_text']],
      [{ media: [{ media_id: image.id, role: 'banner' }] }, ['body.media[0].role']],
      [{ media: [{ media_id: 'not-a-uuid' }] }, ['body.media[0].media_id']],
      [{ media: [{ media_id: image.id, url: 'https://example.com/x.jpg' }] }, ['body.media[0].url']],
      [{ media: [{}] }, ['body.media[0].media_id']],
      [{ segments: [{ media: [{ media_id: image.id, alt_text: 'a'.repeat(1_501) }] }] }, ['body.segments[0].media[0].alt_text']],
      [{ segments: [{ id: 'nope' }] }, ['body.segments[0].id']],
    ];
    for (const [body, expected] of cases) {
      const problem = expectProblem(await patchPublication(owner.token, publication.id, { expected_revision: 1, ...body }), 422);
      expect(locations(problem)).toEqual(expected);
    }
    // The longest alt text and 20 items are fine.
    const ok = await patchPublication(owner.token, publication.id, {
      expected_revision: 1,
      media: [{ media_id: image.id, alt_text: 'a'.repeat(1_500) }, ...Array.from({ length: 19 }, () => ({ media_id: image.id }))],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.media).toHaveLength(20);
    expect(ok.body.media.map((m: any) => m.display_order)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('a stale revision is 409 before the media are looked at; viewers cannot attach (403)', async () => {
    const { owner, workspaceId } = await createTenant();
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    const image = await uploadImage(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    const stale = expectProblem(
      await patchPublication(owner.token, publication.id, { expected_revision: 2, media: [{ media_id: randomUUID() }] }),
      409,
      'revision_conflict',
    );
    expect(stale.current_revision).toBe(1);
    expectProblem(await patchPublication(viewer.token, publication.id, { expected_revision: 1, media: [{ media_id: image.id }] }), 403);
  });

  it('DELETE /media/{id} is 409 media_in_use while a publication not yet published or failed uses it, in any role or place', async () => {
    const { owner, workspaceId } = await createTenant();
    const attached = await uploadImage(owner.token, workspaceId);
    const inSegment = await uploadImage(owner.token, workspaceId);
    const free = await uploadImage(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    expect(
      (
        await patchPublication(owner.token, publication.id, {
          expected_revision: 1,
          media: [{ media_id: attached.id, role: 'thumbnail' }],
          segments: [{ body: 'x', media: [{ media_id: inSegment.id }] }],
        })
      ).status,
    ).toBe(200);
    expectProblem(await call('DELETE', `/media/${attached.id}`, { token: owner.token }), 409, 'media_in_use');
    expectProblem(await call('DELETE', `/media/${inSegment.id}`, { token: owner.token }), 409, 'media_in_use');
    expect((await call('DELETE', `/media/${free.id}`, { token: owner.token })).status).toBe(204);
    // A published (or failed) publication no longer holds its media.
    await db.query(`UPDATE publishing.publications SET status = 'published' WHERE id = $1`, [publication.id]);
    expect((await call('DELETE', `/media/${attached.id}`, { token: owner.token })).status).toBe(204);
  });

  it('another tenant: 404 on every publication route, the new ones included, and nothing changes', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const image = await uploadImage(owner.token, workspaceId);
    const theirs = await uploadImage(intruder.owner.token, intruder.workspaceId);
    const account = await connectSandboxAccount(owner.token, workspaceId, `iso_${Date.now()}`);
    const publication = await createPublication(owner.token, workspaceId);
    await patchPublication(owner.token, publication.id, {
      expected_revision: 1,
      media: [{ media_id: image.id }],
      segments: [{ body: 'x' }],
    });
    const scheduled = await schedule(owner.token, publication.id, {
      expected_revision: 2,
      scheduled_at: inMs(3_600_000),
      account_ids: [account.id],
    });
    expect(scheduled.status).toBe(200);
    const rendition = scheduled.body.renditions[0];
    const segmentId = scheduled.body.segments[0].id;
    await expectTenantIsolation({
      url: `/publications/${publication.id}`,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      attempts: [
        { method: 'PATCH', body: { expected_revision: 3, media: [{ media_id: theirs.id }] } },
        {
          method: 'PATCH',
          path: `/publications/${publication.id}/renditions/${rendition.id}`,
          body: { expected_revision: 3, segments: [{ publication_segment_id: segmentId, body_override: 'pwned' }] },
        },
        { method: 'POST', path: `/publications/${publication.id}/preview`, body: {} },
        { method: 'POST', path: `/publications/${publication.id}/preview`, body: { account_ids: [account.id] } },
      ],
    });
    // Their own publication cannot take the owner's media either.
    const own = await createPublication(intruder.owner.token, intruder.workspaceId);
    const refused = expectProblem(
      await patchPublication(intruder.owner.token, own.id, { expected_revision: 1, media: [{ media_id: image.id }] }),
      422,
    );
    expect(locations(refused)).toEqual(['body.media[0].media_id']);
    expectProblem(await patchRendition(intruder.owner.token, publication.id, rendition.id, { expected_revision: 3 }), 404);
    expectProblem(await preview(intruder.owner.token, publication.id), 404);
  });

  it('a PNG keeps its type and sides', async () => {
    const { owner, workspaceId } = await createTenant();
    const png = await uploadMedia(owner.token, workspaceId, pngBytes(640, 480), 'diagram.png');
    const publication = await createPublication(owner.token, workspaceId);
    const response = await patchPublication(owner.token, publication.id, {
      expected_revision: 1,
      media: [{ media_id: png.id, alt_text: 'A diagram' }],
    });
    expect(response.status).toBe(200);
    await eventually(async () => {
      const read = await call('GET', `/publications/${publication.id}`, { token: owner.token });
      expect(read.body.media[0]).toMatchObject({
        mime_type: 'image/png',
        original_filename: 'diagram.png',
        width: 640,
        height: 480,
        aspect_ratio: '4:3',
        dominant_type: 'image',
      });
    }, 20_000);
  });
});
