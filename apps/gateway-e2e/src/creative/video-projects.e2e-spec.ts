import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { adminCall, registerAdmin, workspaceToken } from '../support/admin.js';
import { baseUrl, call, eventually, expectProblem, locations, registerUser, RFC3339_MS, sendOversized } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, createWorkspace, joinWorkspace } from '../support/tenancy.js';
import { createProject, getProject, newAsset, newProject, replaceProject, videoDocument } from './video-fixtures.js';

const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY_MS = 86_400_000;
const listProjects = (token: string, query: string) => call('GET', `/video-projects?${query}`, { token });
const restoreRevision = (token: string, id: string, body: unknown) =>
  call('POST', `/video-projects/${id}/restore-revision`, { token, body });
const summaryOf = (project: Record<string, unknown>) => {
  const { $schema: _schema, document: _document, ...summary } = project;
  return summary;
};

describe('creative: video projects', () => {
  const db = testDatabase();

  it('creates a project (201, Location, head_revision 1, every field) and reads and lists it', async () => {
    const { owner, workspaceId } = await createTenant();
    const document = videoDocument();
    const response = await createProject(owner.token, { workspace_id: workspaceId, name: 'Launch film', document });
    expect(response.status).toBe(201);
    await expectMatchesOwnSchema(response.body, 'VideoProject');
    expect(response.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/VideoProject\.json$/),
      id: expect.stringMatching(UUID7),
      workspace_id: workspaceId,
      name: 'Launch film',
      document,
      head_revision: 1,
      sync_status: 'synced',
      attention_reason: '',
      preview_object_key: '',
      created_at: expect.stringMatching(RFC3339_MS),
      created_by_user_id: owner.id,
      updated_at: response.body.created_at,
      updated_by_user_id: owner.id,
      trashed_at: '',
      retention_expires_at: '',
    });
    expect(response.headers.get('location')).toBe(`/video-projects/${response.body.id}`);
    expect((await getProject(owner.token, response.body.id)).body).toEqual(response.body);
    const list = await listProjects(owner.token, `workspace_id=${workspaceId}`);
    expect(list.status).toBe(200);
    await expectMatchesOwnSchema(list.body, 'VideoProjectList');
    expect(list.body).toEqual({
      $schema: expect.stringMatching(/VideoProjectList\.json$/),
      projects: [summaryOf(response.body)],
      next_cursor: '',
    });
    const revisions = await call('GET', `/video-projects/${response.body.id}/revisions`, { token: owner.token });
    await expectMatchesOwnSchema(revisions.body, 'VideoRevisionList');
    expect(revisions.body.revisions).toEqual([
      { revision: 1, name: 'Launch film', created_at: response.body.created_at, created_by_user_id: owner.id },
    ]);
    const first = await call('GET', `/video-projects/${response.body.id}/revisions/1`, { token: owner.token });
    await expectMatchesOwnSchema(first.body, 'VideoProjectRevision');
    expect(first.body).toEqual({
      $schema: expect.any(String),
      revision: 1,
      name: 'Launch film',
      document,
      created_at: response.body.created_at,
      created_by_user_id: owner.id,
    });
  });

  it.each([
    ['no document', { document: undefined }, 'body.document', 'is required'],
    ['a null document', { document: null }, 'body.document', 'must not be null'],
    ['a string document', { document: 'film' }, 'body.document', 'must be a JSON object'],
    ['an array document', { document: [{ version: 1 }] }, 'body.document', 'must be a JSON object'],
    ['a number document', { document: 42 }, 'body.document', 'must be a JSON object'],
    ['a boolean document', { document: true }, 'body.document', 'must be a JSON object'],
    ['an empty name', { name: '' }, 'body.name', undefined],
    ['a workspace_id that is not a UUID', { workspace_id: 'w1' }, 'body.workspace_id', undefined],
    ['an unknown member beside the document', { soundtrack: 'x' }, 'body.soundtrack', 'unexpected property'],
  ])('refuses %s (422 at its location)', async (_label, change, location, message) => {
    const { owner, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const body: Record<string, unknown> = { workspace_id: workspaceId, name: 'Film', document: videoDocument(), ...change };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const problem = expectProblem(await createProject(owner.token, body), 422, 'validation_failed');
    expect(locations(problem)).toEqual([location]);
    if (message) expect(problem.errors[0].message).toBe(message);
    if (location !== 'body.name') {
      // PUT the same (its name is optional).
      const { name: _name, ...replace } = body;
      expect(
        locations(
          expectProblem(await replaceProject(owner.token, project.id, { ...replace, expected_head_revision: 1 }), 422, 'validation_failed'),
        ),
      ).toEqual([location]);
    }
    expect((await listProjects(owner.token, `workspace_id=${workspaceId}`)).body.projects.map((p: { id: string }) => p.id)).toEqual([
      project.id,
    ]);
    expect((await getProject(owner.token, project.id)).body.head_revision).toBe(1);
  });

  it("stores the client's own document unchanged: unknown members at every depth, through POST, GET, PUT, revisions and E19", async () => {
    const { owner, workspaceId } = await createTenant();
    // The issue's own example first, then members no shape would have foreseen, at several depths.
    const first = { version: 1, timeline: { tracks: [{ kind: 'video', clips: [{ start: 0, end: 2.5 }] }] } };
    const created = await createProject(owner.token, { workspace_id: workspaceId, name: 'Free form', document: first });
    expect(created.status).toBe(201);
    await expectMatchesOwnSchema(created.body, 'VideoProject');
    expect(created.body.document).toStrictEqual(first);
    const second = {
      $schema: 'https://editor.example/schemas/project-v7.json',
      version: '7.1.0-beta',
      meta: { app: { name: 'Cutter', build: 4821, flags: { experimental: true, beta: false } }, tags: [], notes: null },
      timeline: {
        fps: { num: 30_000, den: 1_001 },
        tracks: [
          {
            uuid: randomUUID(),
            clips: [
              {
                effects: [
                  {
                    type: 'lut',
                    params: {
                      strength: 0.75,
                      curve: [
                        [0, 0],
                        [0.5, 0.62],
                        [1, 1],
                      ],
                    },
                  },
                ],
                'weird key.with dots': 'ok',
                '': 'empty key',
              },
            ],
          },
        ],
        markers: { '00:00:01.000': { label: 'Beat 😀', colour: '#ff00aa' } },
      },
      numbers: [0, -1, 1.5e-7, 123456789012345, -0.25],
      deep: JSON.parse(`${'{"n":'.repeat(100)}{"bottom":["still here"]}${'}'.repeat(100)}`),
      text: 'quotes " backslashes \\ tabs \t and ünïcödé',
    };
    const replaced = await replaceProject(owner.token, created.body.id, {
      workspace_id: workspaceId,
      document: second,
      expected_head_revision: 1,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.document).toStrictEqual(second);
    expect((await getProject(owner.token, created.body.id)).body.document).toStrictEqual(second);
    const revision = (n: number) => call('GET', `/video-projects/${created.body.id}/revisions/${n}`, { token: owner.token });
    expect((await revision(1)).body.document).toStrictEqual(first);
    expect((await revision(2)).body.document).toStrictEqual(second);
    const restored = await restoreRevision(owner.token, created.body.id, { workspace_id: workspaceId, revision: 1 });
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual(expect.objectContaining({ head_revision: 3, document: first }));
    expect(restored.body.document).toStrictEqual(first);
    expect((await revision(3)).body.document).toStrictEqual(first);
    const again = await restoreRevision(owner.token, created.body.id, { workspace_id: workspaceId, revision: 2 });
    expect(again.body.document).toStrictEqual(second);
    expect((await getProject(owner.token, created.body.id)).body.document).toStrictEqual(second);
    // An empty object is a document too.
    expect((await createProject(owner.token, { workspace_id: workspaceId, name: 'Empty', document: {} })).body.document).toStrictEqual({});
    // Members named like JavaScript's own (JSON.parse makes them plain members) are the client's too, kept at any depth.
    const named = JSON.parse(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"clips":[{"__proto__":null,"toString":"t"}]}',
    ) as object;
    const odd = await createProject(owner.token, { workspace_id: workspaceId, name: 'Odd names', document: named });
    expect(odd.status).toBe(201);
    expect(odd.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.stringify(odd.body.document)).toBe(JSON.stringify(named));
    expect(JSON.stringify((await getProject(owner.token, odd.body.id)).body.document)).toBe(JSON.stringify(named));
    const oddReplaced = await replaceProject(owner.token, odd.body.id, {
      workspace_id: workspaceId,
      document: named,
      expected_head_revision: 1,
    });
    expect(JSON.stringify(oddReplaced.body.document)).toBe(JSON.stringify(named));
    // Beside the document, the body's own top level takes no such member.
    const topLevel = await call('POST', '/video-projects', {
      token: owner.token,
      rawBody: `{"__proto__":{"a":1},"workspace_id":"${workspaceId}","name":"x","document":{}}`,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(topLevel, 400, 'malformed_json');
  });

  it('refuses documents nested past 512 levels, and strings PostgreSQL cannot store, at their location; nothing is written', async () => {
    const { owner, workspaceId } = await createTenant();
    const nested = (levels: number) => JSON.parse(`${'{"n":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`);
    const deepest = await createProject(owner.token, { workspace_id: workspaceId, name: 'Deepest', document: nested(512) });
    expect(deepest.status).toBe(201);
    expect(deepest.body.document).toStrictEqual(nested(512));
    const tooDeep = expectProblem(
      await createProject(owner.token, { workspace_id: workspaceId, name: 'Too deep', document: { a: [nested(600)] } }),
      422,
      'validation_failed',
    );
    expect(tooDeep.errors).toEqual([
      { location: `body.document.a[0]${'.n'.repeat(510)}`, message: 'must not nest objects and arrays more than 512 levels deep' },
    ]);
    // A 5 MiB body of brackets: a 422 too, not a 500 (JSON.stringify and PostgreSQL would both overflow their stacks).
    const nestedBrackets = '['.repeat(2_000_000) + ']'.repeat(2_000_000);
    const brackets = `{"workspace_id":"${workspaceId}","name":"Brackets","document":{"a":${nestedBrackets}}}`;
    const bracketsAnswer = await call('POST', '/video-projects', {
      token: owner.token,
      rawBody: brackets,
      headers: { 'content-type': 'application/json' },
    });
    expect(locations(expectProblem(bracketsAnswer, 422, 'validation_failed'))[0]).toMatch(/^body\.document\.a(\[0\])+$/);
    const nul = expectProblem(
      await createProject(owner.token, { workspace_id: workspaceId, name: 'Nul', document: { a: { b: ['ok', 'x\u0000'] } } }),
      422,
    );
    expect(nul.errors).toEqual([{ location: 'body.document.a.b[1]', message: 'must not contain NUL characters or unpaired surrogates' }]);
    expect(
      locations(
        expectProblem(await createProject(owner.token, { workspace_id: workspaceId, name: 'Lone', document: { ['k\ud800']: 1 } }), 422),
      ),
    ).toEqual(['body.document.k\\ud800']);
    expect((await listProjects(owner.token, `workspace_id=${workspaceId}`)).body.projects.map((p: { name: string }) => p.name)).toEqual([
      'Deepest',
    ]);
  });

  it('answers malformed bodies and paths with 4xx, never 500', async () => {
    const { owner, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const json = { 'content-type': 'application/json' };
    expectProblem(await call('POST', '/video-projects', { token: owner.token, rawBody: '{"workspace_id":', headers: json }), 400);
    expectProblem(await call('PUT', `/video-projects/${project.id}`, { token: owner.token, rawBody: '[1, 2]', headers: json }), 400);
    expectProblem(
      await call('POST', '/video-projects', { token: owner.token, rawBody: 'name=x', headers: { 'content-type': 'text/plain' } }),
      415,
    );
    // Documents may be 5 MiB (document-size.e2e-spec.ts has the edge); a body past it is 413.
    const huge = { workspace_id: workspaceId, name: 'Huge', document: videoDocument([], { padding: 'x'.repeat(5_300_000) }) };
    expect(await sendOversized(baseUrl(), 'POST', '/video-projects', owner.token, JSON.stringify(huge))).toMatchObject({
      status: 413,
      problem: { code: 'body_too_large' },
    });
    expectProblem(await getProject(owner.token, 'not-a-uuid'), 404, 'not_found');
    expectProblem(await getProject(owner.token, randomUUID()), 404, 'not_found');
    expectProblem(await call('GET', `/video-projects/${project.id}/revisions/99999999999`, { token: owner.token }), 404);
    expect(
      locations(expectProblem(await call('GET', `/video-projects/${project.id}/revisions?limit=0`, { token: owner.token }), 422)),
    ).toEqual(['query.limit']);
    // A document of 2,001 clips on one track (once refused by a shape of our own) is the client's business.
    const many = videoDocument([], {
      tracks: [
        { id: 't', kind: 'text', clips: Array.from({ length: 2_001 }, (_, i) => ({ id: `c${i}`, start_ms: i, duration_ms: 1, text: '' })) },
      ],
    });
    expect((await createProject(owner.token, { workspace_id: workspaceId, name: 'Many', document: many })).status).toBe(201);
    expectProblem(await call('GET', `/video-projects?workspace_id=${workspaceId}`), 401);
    expectProblem(await call('GET', `/video-projects/${project.id}`, { token: 'not-a-token' }), 401);
  });

  it('pages the list newest first with cursors bound to workspace_id and trashed; bad queries are 422', async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await newProject(owner.token, workspaceId, `P${i}`));
    const first = await listProjects(owner.token, `workspace_id=${workspaceId}&limit=2`);
    expect(first.body.projects.map((p: { name: string }) => p.name)).toEqual(['P4', 'P3']);
    const second = await listProjects(owner.token, `workspace_id=${workspaceId}&limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.projects.map((p: { name: string }) => p.name)).toEqual(['P2', 'P1']);
    const third = await listProjects(owner.token, `workspace_id=${workspaceId}&limit=2&cursor=${second.body.next_cursor}`);
    expect(third.body).toEqual({ $schema: expect.any(String), projects: [summaryOf(created[0])], next_cursor: '' });
    const sibling = await createWorkspace(owner, organizationId, 'Sibling');
    for (const query of [
      `workspace_id=${workspaceId}&trashed=true&cursor=${first.body.next_cursor}`,
      `workspace_id=${sibling}&cursor=${first.body.next_cursor}`,
      `workspace_id=${workspaceId}&cursor=${first.body.next_cursor}x`,
    ]) {
      expect(locations(expectProblem(await listProjects(owner.token, query), 422, 'validation_failed'))).toEqual(['query.cursor']);
    }
    for (const [query, location] of [
      ['limit=0', 'query.limit'],
      ['limit=101', 'query.limit'],
      ['trashed=yes', 'query.trashed'],
      ['extra=1', 'query.extra'],
    ]) {
      expect(locations(expectProblem(await listProjects(owner.token, `workspace_id=${workspaceId}&${query}`), 422))).toEqual([location]);
    }
    expect(locations(expectProblem(await listProjects(owner.token, ''), 422))).toEqual(['query.workspace_id']);
    expectProblem(await listProjects(owner.token, `workspace_id=${randomUUID()}`), 403, 'workspace_forbidden');
  });

  it('replace makes a new head revision; revisions are listed newest first with cursors and read one by one', async () => {
    const { owner, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId, 'Cut 1');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const longer = videoDocument([], { duration_ms: 90_000 });
    const response = await replaceProject(owner.token, project.id, {
      workspace_id: workspaceId,
      name: 'Cut 2',
      document: longer,
      expected_head_revision: 1,
    });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'VideoProject');
    expect(response.body).toEqual({
      ...project,
      name: 'Cut 2',
      document: longer,
      head_revision: 2,
      updated_at: expect.stringMatching(RFC3339_MS),
    });
    expect(Date.parse(response.body.updated_at)).toBeGreaterThan(Date.parse(project.updated_at));
    // name left out: it stays
    const third = await replaceProject(owner.token, project.id, {
      workspace_id: workspaceId.toUpperCase(),
      document: videoDocument(),
      expected_head_revision: 2,
    });
    expect(third.body).toEqual(expect.objectContaining({ name: 'Cut 2', head_revision: 3, document: videoDocument() }));
    const page = await call('GET', `/video-projects/${project.id}/revisions?limit=2`, { token: owner.token });
    expect(page.body.revisions.map((r: { revision: number; name: string }) => [r.revision, r.name])).toEqual([
      [3, 'Cut 2'],
      [2, 'Cut 2'],
    ]);
    const rest = await call('GET', `/video-projects/${project.id}/revisions?limit=2&cursor=${page.body.next_cursor}`, {
      token: owner.token,
    });
    expect(rest.body).toEqual({
      $schema: expect.any(String),
      revisions: [expect.objectContaining({ revision: 1, name: 'Cut 1' })],
      next_cursor: '',
    });
    expect((await call('GET', `/video-projects/${project.id}/revisions/2`, { token: owner.token })).body.document).toEqual(longer);
    const other = await newProject(owner.token, workspaceId, 'Other');
    expect(
      locations(
        expectProblem(
          await call('GET', `/video-projects/${other.id}/revisions?cursor=${page.body.next_cursor}`, { token: owner.token }),
          422,
        ),
      ),
    ).toEqual(['query.cursor']);
    expectProblem(await call('GET', `/video-projects/${project.id}/revisions/4`, { token: owner.token }), 404, 'not_found');
    expectProblem(await call('GET', `/video-projects/${project.id}/revisions/abc`, { token: owner.token }), 404, 'not_found');
    for (const bad of ['0', '-1']) {
      expect(
        locations(
          expectProblem(
            await call('GET', `/video-projects/${project.id}/revisions/${bad}`, { token: owner.token }),
            422,
            'validation_failed',
          ),
        ),
      ).toEqual(['path.revision']);
    }
  });

  it('a stale expected_head_revision is 409 revision_conflict with current_revision, and nothing is written', async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    await replaceProject(owner.token, project.id, { workspace_id: workspaceId, document: videoDocument(), expected_head_revision: 1 });
    const before = (await getProject(owner.token, project.id)).body;
    for (const stale of [1, 3, 99]) {
      const problem = expectProblem(
        await replaceProject(owner.token, project.id, {
          workspace_id: workspaceId,
          name: 'Lost',
          document: videoDocument([], { duration_ms: 5_000 }),
          expected_head_revision: stale,
        }),
        409,
        'revision_conflict',
      );
      expect(problem.current_revision).toBe(2);
    }
    expect((await getProject(owner.token, project.id)).body).toEqual(before);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM creative.video_project_revisions WHERE project_id = $1', [project.id]);
    expect(rows[0].n).toBe(2);
    // The project's own workspace only (422), checked after the path (a foreign project is 404 first).
    const sibling = await createWorkspace(owner, organizationId, 'Sibling');
    const problem = expectProblem(
      await replaceProject(owner.token, project.id, { workspace_id: sibling, document: videoDocument(), expected_head_revision: 2 }),
      422,
    );
    expect(problem.errors).toEqual([
      { location: 'body.workspace_id', message: "must be the video project's own workspace", value: sibling },
    ]);
    expect(
      new Set(
        locations(
          expectProblem(await replaceProject(owner.token, project.id, { workspace_id: workspaceId, document: videoDocument() }), 422),
        ),
      ),
    ).toEqual(new Set(['body.expected_head_revision']));
    expect(
      locations(
        expectProblem(
          await replaceProject(owner.token, project.id, {
            workspace_id: workspaceId,
            document: videoDocument(),
            expected_head_revision: 0,
          }),
          422,
        ),
      ),
    ).toEqual(['body.expected_head_revision']);
  });

  it('of concurrent replaces based on one head exactly one creates the new head', async () => {
    const { owner, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        replaceProject(owner.token, project.id, {
          workspace_id: workspaceId,
          name: `Writer ${i}`,
          document: videoDocument([], { duration_ms: 10_000 + i }),
          expected_head_revision: 1,
        }),
      ),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((answer) => answer.status !== 200))
      expect(expectProblem(loser, 409, 'revision_conflict').current_revision).toBe(2);
    expect((await getProject(owner.token, project.id)).body).toEqual(winners[0].body);
    const { rows } = await db.query('SELECT revision, name FROM creative.video_project_revisions WHERE project_id = $1 ORDER BY revision', [
      project.id,
    ]);
    expect(rows).toEqual([
      { revision: 1, name: project.name },
      { revision: 2, name: winners[0].body.name },
    ]);
  });

  it('E19 restores a revision as a new head (the revision stays); unknown is 404, non-positive 422', async () => {
    const { owner, workspaceId } = await createTenant();
    const original = videoDocument([], { duration_ms: 30_000 });
    const project = await newProject(owner.token, workspaceId, 'Original', original);
    await replaceProject(owner.token, project.id, {
      workspace_id: workspaceId,
      name: 'Edited',
      document: videoDocument(),
      expected_head_revision: 1,
    });
    const response = await restoreRevision(owner.token, project.id, { workspace_id: workspaceId, revision: 1 });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'VideoProject');
    expect(response.body).toEqual(
      expect.objectContaining({ id: project.id, head_revision: 3, name: 'Original', document: original, updated_by_user_id: owner.id }),
    );
    const revisions = (await call('GET', `/video-projects/${project.id}/revisions`, { token: owner.token })).body.revisions;
    expect(revisions.map((r: { revision: number; name: string }) => [r.revision, r.name])).toEqual([
      [3, 'Original'],
      [2, 'Edited'],
      [1, 'Original'],
    ]);
    expectProblem(await restoreRevision(owner.token, project.id, { workspace_id: workspaceId, revision: 4 }), 404, 'not_found');
    for (const revision of [0, -3]) {
      expect(
        locations(
          expectProblem(await restoreRevision(owner.token, project.id, { workspace_id: workspaceId, revision }), 422, 'validation_failed'),
        ),
      ).toEqual(['body.revision']);
    }
    for (const [body, location] of [
      [{ workspace_id: workspaceId, revision: 1.5 }, 'body.revision'],
      [{ workspace_id: workspaceId, revision: '1' }, 'body.revision'],
      [{ workspace_id: workspaceId }, 'body.revision'],
      [{ revision: 1 }, 'body.workspace_id'],
      [{ workspace_id: workspaceId, revision: 1, extra: true }, 'body.extra'],
    ] as const) {
      expect(new Set(locations(expectProblem(await restoreRevision(owner.token, project.id, body), 422)))).toEqual(new Set([location]));
    }
    expect((await getProject(owner.token, project.id)).body.head_revision).toBe(3);
  });

  it(
    'DELETE moves a project to the trash (retention 30 days): hidden from the list, ' +
      'read as itself, restorable; writes are 409 project_trashed',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const project = await newProject(owner.token, workspaceId);
      const kept = await newProject(owner.token, workspaceId, 'Kept');
      const trashed = await call('DELETE', `/video-projects/${project.id}`, { token: owner.token });
      expect(trashed.status).toBe(200);
      await expectMatchesOwnSchema(trashed.body, 'VideoProject');
      expect(trashed.body).toEqual({
        ...project,
        trashed_at: expect.stringMatching(RFC3339_MS),
        retention_expires_at: expect.stringMatching(RFC3339_MS),
        updated_at: expect.any(String),
      });
      expect(Date.parse(trashed.body.retention_expires_at) - Date.parse(trashed.body.trashed_at)).toBe(30 * DAY_MS);
      expect((await call('DELETE', `/video-projects/${project.id}`, { token: owner.token })).body).toEqual(trashed.body);
      expect((await getProject(owner.token, project.id)).body).toEqual(trashed.body);
      expect((await listProjects(owner.token, `workspace_id=${workspaceId}`)).body.projects.map((p: { id: string }) => p.id)).toEqual([
        kept.id,
      ]);
      expect((await listProjects(owner.token, `workspace_id=${workspaceId}&trashed=true`)).body.projects).toEqual([
        summaryOf(trashed.body),
      ]);
      expectProblem(
        await replaceProject(owner.token, project.id, { workspace_id: workspaceId, document: videoDocument(), expected_head_revision: 1 }),
        409,
        'project_trashed',
      );
      expectProblem(await restoreRevision(owner.token, project.id, { workspace_id: workspaceId, revision: 1 }), 409, 'project_trashed');
      expectProblem(
        await call('POST', `/video-projects/${project.id}/assets`, {
          token: owner.token,
          body: { workspace_id: workspaceId, original_filename: 'a.mp4', mime_type: 'video/mp4', size: 10 },
        }),
        409,
        'project_trashed',
      );
      const restored = await call('POST', `/video-projects/${project.id}/restore`, { token: owner.token });
      expect(restored.status).toBe(200);
      await expectMatchesOwnSchema(restored.body, 'VideoProject');
      expect(restored.body).toEqual({ ...project, updated_at: expect.any(String) });
      expect((await call('POST', `/video-projects/${project.id}/restore`, { token: owner.token })).body).toEqual(restored.body);
      expect((await listProjects(owner.token, `workspace_id=${workspaceId}&trashed=true`)).body.projects).toEqual([]);
      expect(
        (await replaceProject(owner.token, project.id, { workspace_id: workspaceId, document: videoDocument(), expected_head_revision: 1 }))
          .status,
      ).toBe(200);
    },
  );

  it('the sweep purges a project whose retention is over, with its revisions and assets; restore is 404 after', async () => {
    const { owner, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const asset = await newAsset(owner.token, project.id, workspaceId);
    const young = await newProject(owner.token, workspaceId, 'Young');
    await call('DELETE', `/video-projects/${project.id}`, { token: owner.token });
    await call('DELETE', `/video-projects/${young.id}`, { token: owner.token });
    await db.query(`UPDATE creative.video_projects SET retention_expires_at = now() - interval '1 second' WHERE id = $1`, [project.id]);
    await eventually(async () => expectProblem(await getProject(owner.token, project.id), 404, 'not_found'), 10_000);
    expectProblem(await call('POST', `/video-projects/${project.id}/restore`, { token: owner.token }), 404, 'not_found');
    for (const table of ['video_project_revisions', 'project_assets']) {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM creative.${table} WHERE project_id = $1`, [project.id]);
      expect(rows[0].n).toBe(0);
    }
    expect(asset.project_id).toBe(project.id);
    // Another trashed project, still within its retention, stays.
    expect((await getProject(owner.token, young.id)).body.trashed_at).toMatch(RFC3339_MS);
  });

  it('viewers read but cannot write (403 insufficient_role); a workspace-bound token of another workspace sees nothing', async () => {
    const { owner, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expect((await getProject(viewer.token, project.id)).status).toBe(200);
    expect((await listProjects(viewer.token, `workspace_id=${workspaceId}`)).status).toBe(200);
    expect((await call('GET', `/video-projects/${project.id}/revisions`, { token: viewer.token })).status).toBe(200);
    expect((await call('GET', `/video-projects/${project.id}/assets`, { token: viewer.token })).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/video-projects', { workspace_id: workspaceId, name: 'Mine', document: videoDocument() }],
      ['PUT', `/video-projects/${project.id}`, { workspace_id: workspaceId, document: videoDocument(), expected_head_revision: 1 }],
      ['POST', `/video-projects/${project.id}/restore-revision`, { workspace_id: workspaceId, revision: 1 }],
      ['DELETE', `/video-projects/${project.id}`, undefined],
      ['POST', `/video-projects/${project.id}/restore`, undefined],
      [
        'POST',
        `/video-projects/${project.id}/assets`,
        { workspace_id: workspaceId, original_filename: 'a.mp4', mime_type: 'video/mp4', size: 10 },
      ],
      ['DELETE', `/video-projects/${project.id}/assets/${randomUUID()}`, undefined],
    ];
    for (const [method, path, body] of writes)
      expectProblem(await call(method, path, { token: viewer.token, body }), 403, 'insufficient_role');
    expect((await getProject(owner.token, project.id)).body).toEqual(project);
    const token = await workspaceToken(owner);
    expectProblem(await getProject(token, project.id), 404);
  });

  it('another tenant replays every video project route: 404 (403 where it names a workspace), and nothing changes', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const asset = await newAsset(owner.token, project.id, workspaceId);
    const url = `/video-projects/${project.id}`;
    await expectTenantIsolation({
      url,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      ownerView: [
        url,
        `${url}/revisions`,
        `${url}/revisions/1`,
        `${url}/assets`,
        `${url}/assets/${asset.id}`,
        `/video-projects?workspace_id=${workspaceId}`,
      ],
      attempts: [
        { method: 'PUT', body: { workspace_id: workspaceId, name: 'Mine', document: videoDocument(), expected_head_revision: 1 } },
        { method: 'PUT', body: { workspace_id: intruder.workspaceId, name: 'Mine', document: videoDocument(), expected_head_revision: 1 } },
        { method: 'DELETE' },
        { method: 'POST', path: `${url}/restore` },
        { method: 'POST', path: `${url}/restore-revision`, body: { workspace_id: workspaceId, revision: 1 } },
        { method: 'GET', path: `${url}/revisions` },
        { method: 'GET', path: `${url}/revisions/1` },
        { method: 'GET', path: `${url}/assets` },
        { method: 'GET', path: `${url}/assets/${asset.id}` },
        {
          method: 'POST',
          path: `${url}/assets`,
          body: { workspace_id: intruder.workspaceId, original_filename: 'a.mp4', mime_type: 'video/mp4', size: 10 },
        },
        { method: 'DELETE', path: `${url}/assets/${asset.id}` },
        { method: 'GET', path: `/video-projects?workspace_id=${workspaceId}`, status: 403 },
        // A valid document of the client's own shape: the workspace is refused, not the document.
        {
          method: 'POST',
          path: '/video-projects',
          body: { workspace_id: workspaceId, name: 'Planted', document: { version: 1, timeline: { tracks: [{ planted: true }] } } },
          status: 403,
        },
      ],
    });
    // And media's E17 with the owner's asset id from the intruder's workspace: not an asset of that workspace.
    const session = await call('POST', '/media/upload-session', {
      token: intruder.owner.token,
      body: { workspace_id: intruder.workspaceId, filename: 'x.mp4', size: asset.size, project_asset_id: asset.id },
    });
    expect(locations(expectProblem(session, 422, 'validation_failed'))).toEqual(['body.project_asset_id']);
  });

  it("organization deletion purges the workspaces' projects, revisions and assets", async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    await newAsset(owner.token, project.id, workspaceId);
    expect((await call('DELETE', `/organizations/${organizationId}`, { token: owner.token })).status).toBe(202);
    await eventually(async () => {
      for (const table of ['video_projects', 'video_project_revisions', 'project_assets']) {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM creative.${table} WHERE workspace_id = $1`, [workspaceId]);
        expect({ table, n: rows[0].n }).toEqual({ table, n: 0 });
      }
    }, 15_000);
  });

  it('the admin directory (E9) and overview (E7) count video projects', async () => {
    const admin = await registerAdmin();
    const { owner, workspaceId } = await createTenant();
    const before = (await adminCall('GET', '/admin/overview', { token: admin.token })).body;
    const project = await newProject(owner.token, workspaceId);
    await newProject(owner.token, workspaceId, 'Second');
    await call('DELETE', `/video-projects/${project.id}`, { token: owner.token });
    const page = await adminCall('GET', `/admin/users?search=${encodeURIComponent(owner.email)}`, { token: admin.token });
    expect(page.status).toBe(200);
    await expectMatchesOwnSchema(page.body, 'InstanceUserPage');
    expect(page.body.users).toEqual([expect.objectContaining({ id: owner.id, video_project_count: 2 })]);
    const after = await adminCall('GET', '/admin/overview', { token: admin.token });
    await expectMatchesOwnSchema(after.body, 'InstanceOverview');
    expect(after.body.usage_complete).toBe(true);
    expect(after.body.total_video_projects).toBeGreaterThanOrEqual(before.total_video_projects + 2);
    const stranger = await registerUser();
    expect(
      (await adminCall('GET', `/admin/users?search=${encodeURIComponent(stranger.email)}`, { token: admin.token })).body.users[0]
        .video_project_count,
    ).toBe(0);
  });
});
