import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, registerUser, RFC3339_MS, schemaUrlFor, withoutSchema } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { ODD_VALUES } from '../support/odd-values.js';
import { connectSandboxAccount, createPublication } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, createWorkspace, joinWorkspace } from '../support/tenancy.js';

const CONTENT_PROFILES = ['short_text', 'thread', 'link_share', 'image_post', 'carousel', 'story', 'short_video', 'long_video'];
const TIME = RFC3339_MS;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const INHERITED_REPOST = {
  mode: 'inherit',
  target_account_ids: [],
  rule: {
    delay_seconds: 0,
    evaluation_window_seconds: 0,
    min_comments: 0,
    min_likes: 0,
    min_reposts: 0,
    min_views: 0,
    plateau_checks: 0,
    require_plateau: false,
    threshold_mode: 'all',
    stages: [],
  },
};

const create = (token: string, body: unknown) => call('POST', '/publications', { token, body });
const patch = (token: string, id: string, body: unknown) => call('PATCH', `/publications/${id}`, { token, body });
const list = (token: string, query: string) => call('GET', `/publications?${query}`, { token });
/** Each location once (a value may break several rules of one member). */
const locations = (problem: { errors: Array<{ location: string }> }) => [...new Set(problem.errors.map((e) => e.location))].sort();

describe('publishing: publications', () => {
  const db = testDatabase();

  it('E15 creates a draft at revision 1 (201, Location, every member) that reads back the same', async () => {
    const { owner, workspaceId } = await createTenant();
    const response = await create(owner.token, {
      workspace_id: workspaceId,
      content_profile: 'thread',
      title: 'Launch week',
      source_text: 'Five things we shipped',
    });
    expect(response.status).toBe(201);
    await expectMatchesOwnSchema(response.body, 'PublicationResponse');
    expect(response.body).toEqual({
      $schema: schemaUrlFor('PublicationResponse'),
      id: expect.stringMatching(UUID),
      workspace_id: workspaceId,
      status: 'draft',
      revision: 1,
      content_profile: 'thread',
      title: 'Launch week',
      source_text: 'Five things we shipped',
      source_url: '',
      audience: '',
      goal: '',
      intent: '',
      creation_preset: '',
      social_set_id: '',
      metadata: {},
      media: [],
      segments: [],
      renditions: [],
      random_delay_inherited: true,
      random_delay_minutes: 0,
      repost_override: INHERITED_REPOST,
      scheduled_at: '',
      actual_run_at: '',
      failure_dismissed_at: '',
      created_by: owner.id,
      created_at: expect.stringMatching(TIME),
      updated_at: response.body.created_at,
    });
    expect(response.headers.get('location')).toBe(`/publications/${response.body.id}`);
    expect(response.headers.get('idempotent-replayed')).toBeNull();

    const one = await call('GET', `/publications/${response.body.id}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(response.body);
    const page = await list(owner.token, `workspace_id=${workspaceId}`);
    expect(page.status).toBe(200);
    await expectMatchesOwnSchema(page.body, 'PublicationList');
    expect(page.body).toEqual({ $schema: schemaUrlFor('PublicationList'), publications: [withoutSchema(response.body)], next_cursor: '' });
  });

  it('OpenAPI documents the operations, the Idempotency-Key header and the published schema names', async () => {
    const { body: openapi } = await call('GET', '/openapi.json');
    const post = openapi.paths['/publications'].post;
    expect(post.parameters).toContainEqual(
      expect.objectContaining({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: expect.objectContaining({ maxLength: 200 }),
      }),
    );
    expect(post.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/PublicationResponse');
    expect(openapi.paths['/publications'].get.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/PublicationList',
    );
    expect(Object.keys(openapi.paths['/publications/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(openapi.components.schemas.ErrorModel.properties.current_revision.type).toBe('integer');
    for (const name of [
      'PublicationResponse',
      'PublicationList',
      'Rendition',
      'Delivery',
      'RenditionSegment',
      'PublicationSegment',
      'PublicationMedia',
      'RepostOverride',
    ]) {
      expect((await call('GET', `/api/v1/schemas/${name}.json`)).status).toBe(200);
    }
  });

  it('E15 takes every content profile, empty texts and the longest ones; anything else is 422 at its member', async () => {
    const { owner, workspaceId } = await createTenant();
    for (const profile of CONTENT_PROFILES) {
      expect((await createPublication(owner.token, workspaceId, { content_profile: profile })).content_profile).toBe(profile);
    }
    const empty = await createPublication(owner.token, workspaceId, { title: '', source_text: '' });
    expect([empty.title, empty.source_text]).toEqual(['', '']);
    const longest = await createPublication(owner.token, workspaceId, { title: 't'.repeat(300), source_text: '😀'.repeat(100_000) });
    expect([longest.title.length, [...longest.source_text].length]).toEqual([300, 100_000]);

    const base = { workspace_id: workspaceId, content_profile: 'short_text', title: 'x', source_text: 'y' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, content_profile: 'tweet' }, 'body.content_profile'],
      [{ ...base, content_profile: 'SHORT_TEXT' }, 'body.content_profile'],
      [{ ...base, title: 't'.repeat(301) }, 'body.title'],
      [{ ...base, source_text: 's'.repeat(100_001) }, 'body.source_text'],
      [{ ...base, title: 7 }, 'body.title'],
      [{ ...base, source_text: null }, 'body.source_text'],
      [{ ...base, workspace_id: 'not-a-uuid' }, 'body.workspace_id'],
      [{ ...base, status: 'published' }, 'body.status'],
      [{ ...base, revision: 5 }, 'body.revision'],
    ];
    for (const [body, location] of cases) {
      const problem = expectProblem(await create(owner.token, body), 422, 'validation_failed');
      expect(locations(problem)).toEqual([location]);
    }
    const missing = expectProblem(await create(owner.token, {}), 422, 'validation_failed');
    expect(locations(missing)).toEqual(['body.content_profile', 'body.source_text', 'body.title', 'body.workspace_id']);
    expect(missing.errors.every((e: { message: string }) => e.message === 'is required')).toBe(true);
    expectProblem(
      await call('POST', '/publications', { token: owner.token, rawBody: '[1]', headers: { 'content-type': 'application/json' } }),
      400,
    );
    // Nothing was created by any refusal.
    const page = await list(owner.token, `workspace_id=${workspaceId}&limit=100`);
    expect(page.body.publications).toHaveLength(CONTENT_PROFILES.length + 2);
  });

  it(
    'lets viewers read but not create, change or delete (403); ' +
      'editors write and are the creator; strangers get 403 for a named workspace',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const publication = await createPublication(owner.token, workspaceId);
      const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
      expect((await call('GET', `/publications/${publication.id}`, { token: viewer.token })).status).toBe(200);
      expect((await list(viewer.token, `workspace_id=${workspaceId}`)).body.publications).toHaveLength(1);
      expectProblem(
        await create(viewer.token, { workspace_id: workspaceId, content_profile: 'story', title: '', source_text: '' }),
        403,
        'insufficient_role',
      );
      expectProblem(await patch(viewer.token, publication.id, { expected_revision: 1, title: 'mine' }), 403, 'insufficient_role');
      expectProblem(await call('DELETE', `/publications/${publication.id}`, { token: viewer.token }), 403, 'insufficient_role');
      expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body).toEqual({ ...publication });

      const editor = await joinWorkspace(owner, workspaceId, 'editor');
      const byEditor = await createPublication(editor.token, workspaceId);
      expect(byEditor.created_by).toBe(editor.id);
      expect((await patch(editor.token, publication.id, { expected_revision: 1, title: 'Edited' })).status).toBe(200);
      expect((await call('DELETE', `/publications/${byEditor.id}`, { token: editor.token })).status).toBe(204);

      const stranger = await registerUser();
      expectProblem(
        await create(stranger.token, { workspace_id: workspaceId, content_profile: 'story', title: '', source_text: '' }),
        403,
        'workspace_forbidden',
      );
      expectProblem(
        await create(stranger.token, { workspace_id: randomUUID(), content_profile: 'story', title: '', source_text: '' }),
        403,
        'workspace_forbidden',
      );
      expectProblem(await list(stranger.token, `workspace_id=${workspaceId}`), 403, 'workspace_forbidden');
      expectProblem(await list(stranger.token, `workspace_id=${randomUUID()}`), 403, 'workspace_forbidden');
    },
  );

  it(
    'keeps publications to their tenant: every read and write by ' + 'another tenant is 404 (403 naming the workspace), nothing changes',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const intruder = await createTenant();
      const publication = await createPublication(owner.token, workspaceId);
      await expectTenantIsolation({
        url: `/publications/${publication.id}`,
        ownerToken: owner.token,
        intruderToken: intruder.owner.token,
        attempts: [
          { method: 'PATCH', body: { expected_revision: 1, title: 'pwned' } },
          { method: 'PATCH', body: { expected_revision: 1, segments: [] } },
          { method: 'DELETE' },
          { method: 'GET', path: `/publications?workspace_id=${workspaceId}`, status: 403 },
          {
            method: 'POST',
            path: '/publications',
            body: { workspace_id: workspaceId, content_profile: 'story', title: '', source_text: '' },
            status: 403,
          },
        ],
        ownerView: [`/publications/${publication.id}`, `/publications?workspace_id=${workspaceId}`],
      });
      // The intruder's own workspace does not see it either.
      expect((await list(intruder.owner.token, `workspace_id=${intruder.workspaceId}`)).body.publications).toEqual([]);
    },
  );

  it('pages newest first through more than 100 publications with opaque cursors; a status filter pages alike', async () => {
    const { owner, workspaceId } = await createTenant();
    const created: string[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const ten = await Promise.all(
        Array.from({ length: 10 }, (_, i) => createPublication(owner.token, workspaceId, { title: `#${batch * 10 + i}` })),
      );
      created.push(...ten.map((p) => p.id));
    }
    // Newest first: created_at descending, ties by id descending (UUIDv7 ids grow with time).
    const expected = (
      await db.query(`SELECT id FROM publishing.publications WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC`, [workspaceId])
    ).rows.map((row: { id: string }) => row.id);
    expect([...expected].sort()).toEqual([...created].sort());

    const pageThrough = async (query: string, limit?: number) => {
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor = '';
      for (;;) {
        const page = await list(
          owner.token,
          `${query}${limit ? `&limit=${limit}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.status).toBe(200);
        seen.push(...page.body.publications.map((p: { id: string }) => p.id));
        sizes.push(page.body.publications.length);
        cursor = page.body.next_cursor;
        if (!cursor) return { seen, sizes };
        expect(cursor).toMatch(/^[\w-]+\.[\w-]+$/);
      }
    };
    expect(await pageThrough(`workspace_id=${workspaceId}`, 100)).toEqual({ seen: expected, sizes: [100, 20] });
    expect(await pageThrough(`workspace_id=${workspaceId}`)).toEqual({ seen: expected, sizes: [50, 50, 20] });
    expect(await pageThrough(`workspace_id=${workspaceId}`, 7)).toEqual({ seen: expected, sizes: [...Array(17).fill(7), 1] });
    // Exactly a page: the last page says so with an empty cursor, not one that leads to nothing.
    expect((await pageThrough(`workspace_id=${workspaceId}`, 60)).sizes).toEqual([60, 60]);

    // Three become scheduled: the filter sees just them, newest first.
    const scheduled = [expected[3], expected[50], expected[110]];
    await db.query(`UPDATE publishing.publications SET status = 'scheduled' WHERE id = ANY($1::uuid[])`, [scheduled]);
    expect(await pageThrough(`workspace_id=${workspaceId}&status=scheduled`, 2)).toEqual({ seen: scheduled, sizes: [2, 1] });
    expect((await pageThrough(`workspace_id=${workspaceId}&status=draft`, 100)).seen).toEqual(
      expected.filter((id: string) => !scheduled.includes(id)),
    );
    expect((await list(owner.token, `workspace_id=${workspaceId}&status=failed`)).body).toEqual({
      $schema: schemaUrlFor('PublicationList'),
      publications: [],
      next_cursor: '',
    });
  });

  it('refuses bad list queries and cursors used elsewhere or edited (422 at their parameter)', async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const secondWorkspace = await createWorkspace(owner, organizationId, 'Second');
    for (let i = 0; i < 3; i++) await createPublication(owner.token, workspaceId);
    const first = await list(owner.token, `workspace_id=${workspaceId}&limit=1`);
    const cursor: string = first.body.next_cursor;
    expect(cursor).not.toBe('');
    expect((await list(owner.token, `workspace_id=${workspaceId}&limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    // An empty cursor (a last page's next_cursor passed back) is the first page.
    expect((await list(owner.token, `workspace_id=${workspaceId}&limit=1&cursor=`)).body.publications).toEqual(first.body.publications);

    const refusals: Array<[string, string]> = [
      [`workspace_id=${secondWorkspace}&cursor=${encodeURIComponent(cursor)}`, 'query.cursor'],
      [`workspace_id=${workspaceId}&status=draft&cursor=${encodeURIComponent(cursor)}`, 'query.cursor'],
      [`workspace_id=${workspaceId}&cursor=${encodeURIComponent(`${cursor}x`)}`, 'query.cursor'],
      [`workspace_id=${workspaceId}&cursor=${encodeURIComponent(`e30.${cursor.split('.')[1]}`)}`, 'query.cursor'],
      [`workspace_id=${workspaceId}&cursor=garbage`, 'query.cursor'],
      [`workspace_id=${workspaceId}&cursor=${'a'.repeat(501)}`, 'query.cursor'],
      [`workspace_id=${workspaceId}&status=archived`, 'query.status'],
      [`workspace_id=${workspaceId}&status=`, 'query.status'],
      [`workspace_id=${workspaceId}&limit=0`, 'query.limit'],
      [`workspace_id=${workspaceId}&limit=101`, 'query.limit'],
      [`workspace_id=${workspaceId}&limit=ten`, 'query.limit'],
      [`workspace_id=${workspaceId}&limit=1.5`, 'query.limit'],
      [`workspace_id=${workspaceId}&sort=oldest`, 'query.sort'],
      ['workspace_id=nope', 'query.workspace_id'],
      ['', 'query.workspace_id'],
    ];
    for (const [query, location] of refusals) {
      const problem = expectProblem(await list(owner.token, query), 422, 'validation_failed');
      expect(locations(problem)).toEqual([location]);
    }
    expectProblem(await call('GET', `/publications?workspace_id=${workspaceId}&workspace_id=${workspaceId}`, { token: owner.token }), 422);
    expectProblem(await call('GET', '/publications/not-a-uuid', { token: owner.token }), 404, 'not_found');
    expectProblem(await call('GET', `/publications/${randomUUID()}`, { token: owner.token }), 404, 'not_found');
  });

  it('PATCH replaces the members sent and the whole segment list, adding 1 to the revision', async () => {
    const { owner, workspaceId } = await createTenant();
    const publication = await createPublication(owner.token, workspaceId);
    const change = {
      expected_revision: 1,
      title: 'Launch week, day 2',
      source_text: 'Longer notes',
      content_profile: 'thread',
      audience: 'indie developers',
      goal: 'newsletter signups',
      intent: 'show the new editor',
      source_url: 'https://example.com/changelog',
      metadata: { campaign: 'q4', tags: ['a', 'b'], nested: { n: 1 } },
      segments: [
        { title: 'One', body: 'First post', description: 'intro', url: 'https://example.com/1', settings: { pin: true } },
        { body: 'Second post' },
        {},
      ],
    };
    const response = await patch(owner.token, publication.id, change);
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'PublicationResponse');
    const { expected_revision: _revision, segments: _segments, ...members } = change;
    expect(response.body).toEqual({
      ...publication,
      ...members,
      revision: 2,
      updated_at: expect.stringMatching(TIME),
      segments: [
        {
          id: expect.stringMatching(UUID),
          position: 0,
          title: 'One',
          body: 'First post',
          description: 'intro',
          url: 'https://example.com/1',
          media: [],
          settings: { pin: true },
        },
        { id: expect.stringMatching(UUID), position: 1, title: '', body: 'Second post', description: '', url: '', media: [], settings: {} },
        { id: expect.stringMatching(UUID), position: 2, title: '', body: '', description: '', url: '', media: [], settings: {} },
      ],
    });
    expect(response.body.updated_at > publication.updated_at).toBe(true);
    expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body).toEqual(response.body);

    // Members left out keep their values; a new list replaces the old one (new ids); "" clears.
    const second = await patch(owner.token, publication.id, { expected_revision: 2, source_url: '', segments: [{ body: 'Only one' }] });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      revision: 3,
      title: 'Launch week, day 2',
      audience: 'indie developers',
      source_url: '',
      metadata: change.metadata,
    });
    expect(second.body.segments).toEqual([
      { id: expect.stringMatching(UUID), position: 0, title: '', body: 'Only one', description: '', url: '', media: [], settings: {} },
    ]);
    expect(response.body.segments.map((s: { id: string }) => s.id)).not.toContain(second.body.segments[0].id);
    const cleared = await patch(owner.token, publication.id, { expected_revision: 3, segments: [], metadata: {} });
    expect(cleared.body).toMatchObject({ revision: 4, segments: [], metadata: {} });
    expect(
      (await db.query(`SELECT count(*)::int AS n FROM publishing.publication_segments WHERE publication_id = $1`, [publication.id])).rows[0]
        .n,
    ).toBe(0);
    // Only expected_revision: still a change, still a new revision.
    expect((await patch(owner.token, publication.id, { expected_revision: 4 })).body.revision).toBe(5);
  });

  it(
    'PATCH with a stale revision is 409 revision_conflict with current_revision, ' + 'and nothing changes; racing edits have one winner',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const publication = await createPublication(owner.token, workspaceId);
      const edited = (await patch(owner.token, publication.id, { expected_revision: 1, title: 'First' })).body;
      for (const stale of [1, 3, 99]) {
        const problem = expectProblem(
          await patch(owner.token, publication.id, { expected_revision: stale, title: 'Lost', segments: [{ body: 'x' }] }),
          409,
          'revision_conflict',
        );
        expect(problem.current_revision).toBe(2);
      }
      expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body).toEqual(edited);

      const racers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          patch(owner.token, publication.id, { expected_revision: 2, title: `Racer ${i}`, segments: [{ body: `${i}` }] }),
        ),
      );
      const winners = racers.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      for (const loser of racers.filter((r) => r.status !== 200))
        expect(expectProblem(loser, 409, 'revision_conflict').current_revision).toBe(3);
      const now = (await call('GET', `/publications/${publication.id}`, { token: owner.token })).body;
      expect(now).toEqual(winners[0].body);
      expect(now.segments).toHaveLength(1);
      expect(now.segments[0].body).toBe(now.title.replace('Racer ', ''));
    },
  );

  it(
    'PATCH of a publication that is not draft, ready or scheduled ' + 'is 409 publication_not_editable; scheduled ones can be changed',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const publication = await createPublication(owner.token, workspaceId);
      for (const status of ['publishing', 'published', 'failed']) {
        await db.query(`UPDATE publishing.publications SET status = $2 WHERE id = $1`, [publication.id, status]);
        expectProblem(
          await patch(owner.token, publication.id, { expected_revision: 1, title: 'Too late' }),
          409,
          'publication_not_editable',
        );
        // A stale revision is named first: the caller's view is out of date either way.
        expectProblem(await patch(owner.token, publication.id, { expected_revision: 7, title: 'Too late' }), 409, 'revision_conflict');
      }
      const stored = (await db.query(`SELECT title, revision FROM publishing.publications WHERE id = $1`, [publication.id])).rows[0];
      expect(stored).toEqual({ title: 'Hello', revision: 1 });
      await db.query(`UPDATE publishing.publications SET status = 'scheduled' WHERE id = $1`, [publication.id]);
      const changed = await patch(owner.token, publication.id, { expected_revision: 1, title: 'Still in time' });
      expect(changed.body).toMatchObject({ status: 'scheduled', revision: 2, title: 'Still in time' });
    },
  );

  it('PATCH refuses bad input with 422 naming each location, and leaves the publication as it was', async () => {
    const { owner, workspaceId } = await createTenant();
    const publication = await createPublication(owner.token, workspaceId);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{}, ['body.expected_revision']],
      [{ title: 'x' }, ['body.expected_revision']],
      [{ expected_revision: 0 }, ['body.expected_revision']],
      [{ expected_revision: '1' }, ['body.expected_revision']],
      [{ expected_revision: 1.5 }, ['body.expected_revision']],
      [{ expected_revision: 2 ** 31 }, ['body.expected_revision']],
      [{ expected_revision: 1, title: 't'.repeat(301) }, ['body.title']],
      [{ expected_revision: 1, source_text: 's'.repeat(100_001) }, ['body.source_text']],
      [{ expected_revision: 1, content_profile: 'essay' }, ['body.content_profile']],
      [
        { expected_revision: 1, audience: 'a'.repeat(1_001), goal: 'g'.repeat(1_001), intent: 'i'.repeat(1_001) },
        ['body.audience', 'body.goal', 'body.intent'],
      ],
      [{ expected_revision: 1, source_url: 'ftp://example.com/x' }, ['body.source_url']],
      [{ expected_revision: 1, source_url: 'not a url' }, ['body.source_url']],
      [{ expected_revision: 1, source_url: `https://example.com/${'p'.repeat(2_048)}` }, ['body.source_url']],
      [{ expected_revision: 1, metadata: [] }, ['body.metadata']],
      [{ expected_revision: 1, metadata: 'x' }, ['body.metadata']],
      [{ expected_revision: 1, metadata: { big: 'x'.repeat(65_536) } }, ['body.metadata']],
      [{ expected_revision: 1, metadata: JSON.parse(`${'{"a":'.repeat(17)}1${'}'.repeat(17)}`) }, ['body.metadata']],
      [{ expected_revision: 1, title: null }, ['body.title']],
      [{ expected_revision: 1, status: 'published' }, ['body.status']],
      [{ expected_revision: 1, workspace_id: workspaceId }, ['body.workspace_id']],
      [{ expected_revision: 1, segments: {} }, ['body.segments']],
      [{ expected_revision: 1, segments: [1] }, ['body.segments', 'body.segments[0]']],
      [{ expected_revision: 1, segments: Array.from({ length: 101 }, () => ({})) }, ['body.segments']],
      [{ expected_revision: 1, segments: [{}, { body: 5 }] }, ['body.segments[1].body']],
      [{ expected_revision: 1, segments: [{ url: 'javascript:alert(1)' }] }, ['body.segments[0].url']],
      [
        { expected_revision: 1, segments: [{ title: 't'.repeat(301), description: 'd'.repeat(5_001) }] },
        ['body.segments[0].description', 'body.segments[0].title'],
      ],
      [{ expected_revision: 1, segments: [{ settings: [] }] }, ['body.segments[0].settings']],
      [{ expected_revision: 1, segments: [{ id: randomUUID() }] }, ['body.segments[0].id']],
      [{ expected_revision: 1, segments: [{ media: [{}] }] }, ['body.segments[0].media[0].media_id']],
      [{ expected_revision: 1, media: [{ media_id: randomUUID(), role: 'poster' }] }, ['body.media[0].role']],
    ];
    for (const [body, expected] of cases) {
      const problem = expectProblem(await patch(owner.token, publication.id, body), 422, 'validation_failed');
      expect([JSON.stringify(body).slice(0, 60), locations(problem)]).toEqual([JSON.stringify(body).slice(0, 60), expected]);
    }
    expectProblem(await patch(owner.token, 'not-a-uuid', { expected_revision: 1 }), 404, 'not_found');
    expectProblem(await patch(owner.token, randomUUID(), { expected_revision: 1 }), 404, 'not_found');
    expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body).toEqual(publication);
    // The deepest and largest metadata allowed are stored as sent.
    const deep = JSON.parse(`${'{"a":'.repeat(16)}1${'}'.repeat(16)}`);
    expect((await patch(owner.token, publication.id, { expected_revision: 1, metadata: deep })).body.metadata).toEqual(deep);
  });

  it('PATCH of a real publication answers odd values in every member, segments included, with a 2xx or a 4xx problem', async () => {
    const { owner, workspaceId } = await createTenant();
    const publication = await createPublication(owner.token, workspaceId);
    const odd: unknown[] = [...ODD_VALUES, { 'k\u0000': 1 }, [{ a: [null] }], 'a\ud800', { k: '\udfff' }, { ['\ud83d']: 1 }];
    const failures: string[] = [];
    const attempt = async (body: Record<string, unknown>) => {
      const current = (await call('GET', `/publications/${publication.id}`, { token: owner.token })).body.revision;
      const response = await patch(owner.token, publication.id, { expected_revision: current, ...body });
      const isProblem = (response.headers.get('content-type') ?? '').startsWith('application/problem+json');
      if (response.status >= 500 || (response.status >= 400 && !isProblem))
        failures.push(`${JSON.stringify(body).slice(0, 80)} → ${response.status}`);
    };
    for (const value of odd) {
      for (const member of ['title', 'source_text', 'content_profile', 'audience', 'goal', 'intent', 'source_url', 'metadata', 'segments'])
        await attempt({ [member]: value });
      for (const member of ['title', 'body', 'description', 'url', 'settings']) await attempt({ segments: [{ [member]: value }] });
    }
    expect(failures).toEqual([]);
    // jsonb cannot store an unpaired surrogate: refused where it is, before anything is written.
    const revision = (await call('GET', `/publications/${publication.id}`, { token: owner.token })).body.revision;
    const lone = expectProblem(
      await patch(owner.token, publication.id, { expected_revision: revision, metadata: { note: 'x\ud800' } }),
      422,
    );
    expect(lone.errors).toEqual([{ location: 'body.metadata.note', message: 'must not contain NUL characters or unpaired surrogates' }]);
    expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body.revision).toBe(revision);
  });

  it('DELETE removes a publication with its segments (204); it is gone from reads, writes and the list', async () => {
    const { owner, workspaceId } = await createTenant();
    const kept = await createPublication(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId);
    await patch(owner.token, publication.id, { expected_revision: 1, segments: [{ body: 'a' }, { body: 'b' }] });
    const response = await call('DELETE', `/publications/${publication.id}`, { token: owner.token });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expectProblem(await call('GET', `/publications/${publication.id}`, { token: owner.token }), 404, 'not_found');
    expectProblem(await patch(owner.token, publication.id, { expected_revision: 2 }), 404, 'not_found');
    expectProblem(await call('DELETE', `/publications/${publication.id}`, { token: owner.token }), 404, 'not_found');
    expectProblem(await call('DELETE', '/publications/%00', { token: owner.token }), 404);
    expect((await list(owner.token, `workspace_id=${workspaceId}`)).body.publications.map((p: { id: string }) => p.id)).toEqual([kept.id]);
    expect(
      (await db.query(`SELECT count(*)::int AS n FROM publishing.publication_segments WHERE publication_id = $1`, [publication.id])).rows[0]
        .n,
    ).toBe(0);
  });

  it('answers renditions, their delivery and segments with every member as stored (scheduling writes them)', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId);
    const publication = await createPublication(owner.token, workspaceId, { content_profile: 'thread' });
    const edited = (await patch(owner.token, publication.id, { expected_revision: 1, segments: [{ body: 'one' }] })).body;
    const segmentId = edited.segments[0].id;
    const renditionId = randomUUID();
    const partId = randomUUID();
    await db.query(
      `INSERT INTO publishing.renditions (id, publication_id, social_account_id, platform, target_key, profile, output_profile, status,
         title, body, description, format_locked, schedule_override, media, settings, external_id, external_url, error_action,
         error_code, error_kind, error_message, error_http_status, error_retryable, error_retry_at, delivery_state,
         delivery_recovery_action, delivery_target_key, delivery_current_attempt_id, delivery_current_attempt_number,
         delivery_current_attempt_created_at, delivery_terminal_reason, delivery_last_reconciled_at, delivery_next_reconciliation_at,
         created_at, updated_at)
       VALUES ($1, $2, $3, 'sandbox', 'sandbox:a', 'thread', 'thread_post', 'failed', 'RT', 'RB', 'RD', true, '2026-12-01T10:00:00.000Z',
         '[{"id": "m1", "width": 640, "frame_rate": 24.5, "public_url_ready": true}]', '{"k": "v"}', 'x1', 'https://sandbox.example/x1',
         'retry', 'rate_limited', 'transient', 'slow down', 429, true, '2026-12-01T10:05:00.000Z', 'rejected', 'retry', 'sandbox:a:1',
         $4, 2, '2026-12-01T10:00:01.000Z', 'gave up', '2026-12-01T10:01:00.000Z', '2026-12-01T11:00:00.000Z', now(), now())`,
      [renditionId, publication.id, account.id, randomUUID()],
    );
    await db.query(
      `INSERT INTO publishing.rendition_segments (id, rendition_id, publication_segment_id, position, status, title, body, description, url,
         title_override, body_override, description_override, url_override, media_inherited, media, settings, external_id, external_url,
         error_action, error_code, error_kind, error_message, error_http_status, error_retryable, error_retry_at)
       VALUES ($1, $2, $3, 0, 'published', 'ST', 'SB', 'SD', 'https://example.com/s', 'STO', 'SBO', 'SDO', 'https://example.com/o', false,
         '[]', '{"s": 1}', 'sx', 'https://sandbox.example/sx', '', '', '', '', 0, false, NULL)`,
      [partId, renditionId, segmentId],
    );
    const response = await call('GET', `/publications/${publication.id}`, { token: owner.token });
    await expectMatchesOwnSchema(response.body, 'PublicationResponse');
    const [rendition] = response.body.renditions;
    expect(rendition).toEqual({
      id: renditionId,
      publication_id: publication.id,
      social_account_id: account.id,
      platform: 'sandbox',
      target_key: 'sandbox:a',
      profile: 'thread',
      output_profile: 'thread_post',
      status: 'failed',
      title: 'RT',
      body: 'RB',
      description: 'RD',
      format_locked: true,
      schedule_override: '2026-12-01T10:00:00.000Z',
      media: [
        {
          id: 'm1',
          url: '',
          role: '',
          mime_type: '',
          original_filename: '',
          alt_text: '',
          aspect_ratio: '',
          dominant_type: '',
          analysis_status: '',
          analysis_error: '',
          poster_thumbnail_url: '',
          public_url_checked_at: '',
          public_url_error: '',
          public_url_status: 0,
          public_url_ready: true,
          display_order: 0,
          duration_ms: 0,
          width: 640,
          height: 0,
          size: 0,
          thumbnail_timestamp_ms: 0,
          frame_rate: 24.5,
          settings: {},
        },
      ],
      settings: { k: 'v' },
      external_id: 'x1',
      external_url: 'https://sandbox.example/x1',
      error_action: 'retry',
      error_code: 'rate_limited',
      error_kind: 'transient',
      error_message: 'slow down',
      error_http_status: 429,
      error_retryable: true,
      error_retry_at: '2026-12-01T10:05:00.000Z',
      delivery: {
        state: 'rejected',
        recovery_action: 'retry',
        target_key: 'sandbox:a:1',
        current_attempt_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        current_attempt_number: 2,
        current_attempt_created_at: '2026-12-01T10:00:01.000Z',
        external_id: 'x1',
        external_url: 'https://sandbox.example/x1',
        error_code: 'rate_limited',
        error_kind: 'transient',
        error_http_status: 429,
        terminal_reason: 'gave up',
        last_reconciled_at: '2026-12-01T10:01:00.000Z',
        next_reconciliation_at: '2026-12-01T11:00:00.000Z',
      },
      segments: [
        {
          id: partId,
          publication_segment_id: segmentId,
          position: 0,
          status: 'published',
          title: 'ST',
          body: 'SB',
          description: 'SD',
          url: 'https://example.com/s',
          title_override: 'STO',
          body_override: 'SBO',
          description_override: 'SDO',
          url_override: 'https://example.com/o',
          media_inherited: false,
          media: [],
          settings: { s: 1 },
          external_id: 'sx',
          external_url: 'https://sandbox.example/sx',
          error_action: '',
          error_code: '',
          error_kind: '',
          error_message: '',
          error_http_status: 0,
          error_retryable: false,
          error_retry_at: '',
        },
      ],
    });
    // The page reads children in its own statement: the listed publication is the one read alone, every member.
    const [listed] = (await list(owner.token, `workspace_id=${workspaceId}`)).body.publications;
    expect(listed.renditions).toEqual([rendition]);
    expect({ $schema: response.body.$schema, ...listed }).toEqual(response.body);

    // Segments replaced by an edit: the rendition keeps its own copy, no longer linked.
    await db.query(`UPDATE publishing.publications SET status = 'scheduled' WHERE id = $1`, [publication.id]);
    const replaced = await patch(owner.token, publication.id, { expected_revision: 2, segments: [{ body: 'new' }] });
    expect(replaced.body.renditions[0].segments[0]).toMatchObject({ id: partId, publication_segment_id: '', body: 'SB' });
    // Scheduled to a social set (scheduling will write it): it reads back, and a deleted set leaves "".
    const set = await call('POST', '/social-sets', {
      token: owner.token,
      body: { workspace_id: workspaceId, name: 'All', accounts: [{ social_account_id: account.id }] },
    });
    expect(set.status).toBe(201);
    await db.query(`UPDATE publishing.publications SET social_set_id = $2 WHERE id = $1`, [publication.id, set.body.id]);
    expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body.social_set_id).toBe(set.body.id);
    expect((await call('DELETE', `/social-sets/${set.body.id}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body).toMatchObject({
      social_set_id: '',
      renditions: [{ id: renditionId }],
    });
    // The account disconnected: its rendition goes with it.
    expect((await call('DELETE', `/social-accounts/${account.id}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', `/publications/${publication.id}`, { token: owner.token })).body.renditions).toEqual([]);
  });
});
