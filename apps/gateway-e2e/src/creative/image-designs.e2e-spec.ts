import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { adminCall, registerAdmin } from '../support/admin.js';
import { call, eventually, expectProblem, RFC3339_MS, registerUser, schemaUrlFor } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { createDesign, simpleDocument } from '../support/image-editor.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { where } from '../support/image-editor.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** The document as stored: what was sent, with the document's, pages' and layers' own members filled. */
const storedSimple = () => ({
  schema_version: 1,
  title: '',
  preset_key: '',
  brand_kit_id: '',
  brand_kit_revision: 0,
  width_px: 64,
  height_px: 48,
  export_defaults: { format: 'png', matte_color: '', quality: 0.92 },
  pages: [
    {
      id: 'page-1',
      name: '',
      background_color: '',
      latest_export_media_id: '',
      preview_media_id: '',
      color_grade_version: 0,
      background: { type: 'color', color: '#ff0000', opacity: 1 },
      guides: { horizontal: [], vertical: [] },
      layers: [
        {
          id: 'box',
          type: 'shape',
          name: '',
          parent_id: '',
          locked: false,
          visible: true,
          opacity: 1,
          transform: { x: 8, y: 8, width: 16, height: 16, rotation: 0, flip_x: false, flip_y: false },
          shape: { kind: 'rectangle', fill: '#0000ff' },
        },
      ],
    },
  ],
});

const invalidDocument = async (token: string, workspaceId: string, document: unknown) => {
  const response = await call('POST', '/image-editor/designs', { token, body: { workspace_id: workspaceId, name: 'Bad', document } });
  return { problem: expectProblem(response, 422, 'validation_failed'), response };
};

describe('image editor: designs and revisions', () => {
  const db = testDatabase();

  it('creates a design from a document: 201, Location, every member, defaults filled, revision 1', async () => {
    const { owner, workspaceId } = await createTenant();
    const created = await call('POST', '/api/v1/image-editor/designs', {
      token: owner.token,
      body: { workspace_id: workspaceId, name: 'Launch', document: simpleDocument(), $schema: 'ignored' },
    });
    expect(created.status).toBe(201);
    const design = created.body;
    expect(created.headers.get('location')).toBe(`/image-editor/designs/${design.id}`);
    expect(design).toEqual({
      $schema: schemaUrlFor('ImageEditorDesign'),
      id: expect.stringMatching(UUID),
      workspace_id: workspaceId,
      name: 'Launch',
      document: storedSimple(),
      head_revision_id: expect.stringMatching(UUID),
      preview_media_id: '',
      created_at: expect.stringMatching(RFC3339_MS),
      updated_at: design.created_at,
    });
    await expectMatchesOwnSchema(design, 'ImageEditorDesign');
    const read = await call('GET', `/image-editor/designs/${design.id}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(design);

    const revisions = await call('GET', `/image-editor/designs/${design.id}/revisions`, { token: owner.token });
    expect(revisions.status).toBe(200);
    await expectMatchesOwnSchema(revisions.body, 'ImageEditorRevisionList');
    expect(revisions.body).toEqual({
      $schema: schemaUrlFor('ImageEditorRevisionList'),
      revisions: [
        {
          id: design.head_revision_id,
          revision: 1,
          kind: 'checkpoint',
          name: '',
          actor: { is_current_user: true, name: expect.any(String) },
          created_at: design.created_at,
          expires_at: '',
        },
      ],
      next_cursor: '',
    });
  });

  it('creates a design from a built-in or a workspace template (its document copied); unknown templates are 422', async () => {
    const { owner, workspaceId } = await createTenant();
    const builtIns = await call('GET', `/image-editor/templates?workspace_id=${workspaceId}`, { token: owner.token });
    const square = builtIns.body.templates.find((template: any) => template.id === 'instagram-square');
    const fromBuiltIn = await call('POST', '/image-editor/designs', {
      token: owner.token,
      body: { workspace_id: workspaceId, name: 'Square', template_id: 'instagram-square' },
    });
    expect(fromBuiltIn.status).toBe(201);
    expect(fromBuiltIn.body.document).toEqual(square.document);
    expect(fromBuiltIn.body.document).toMatchObject({ width_px: 1080, height_px: 1080, preset_key: 'instagram-square' });

    const template = await call('POST', '/image-editor/templates', {
      token: owner.token,
      body: { workspace_id: workspaceId, name: 'Mine', category: 'ads', document: simpleDocument({ title: 'T' }) },
    });
    expect(template.status).toBe(201);
    const fromOwn = await call('POST', '/image-editor/designs', {
      token: owner.token,
      body: { workspace_id: workspaceId, name: 'Own', template_id: template.body.id },
    });
    expect(fromOwn.status).toBe(201);
    expect(fromOwn.body.document).toEqual(template.body.document);

    // Another workspace's template looks unknown.
    const other = await createTenant();
    const foreign = await call('POST', '/image-editor/designs', {
      token: other.owner.token,
      body: { workspace_id: other.workspaceId, name: 'X', template_id: template.body.id },
    });
    expect(where(expectProblem(foreign, 422, 'validation_failed'))).toEqual(['body.template_id']);
    for (const templateId of ['no-such-preset', randomUUID()]) {
      const unknown = await call('POST', '/image-editor/designs', {
        token: owner.token,
        body: { workspace_id: workspaceId, name: 'X', template_id: templateId },
      });
      expect(where(expectProblem(unknown, 422, 'validation_failed'))).toEqual(['body.template_id']);
    }
    const both = await call('POST', '/image-editor/designs', {
      token: owner.token,
      body: { workspace_id: workspaceId, name: 'X', template_id: 'instagram-square', document: simpleDocument() },
    });
    expect(where(expectProblem(both, 422))).toEqual(['body.template_id']);
    const neither = await call('POST', '/image-editor/designs', { token: owner.token, body: { workspace_id: workspaceId, name: 'X' } });
    expect(where(expectProblem(neither, 422))).toEqual(['body.document']);
  });

  it('validates the document in depth, each problem at its location', async () => {
    const { owner, workspaceId } = await createTenant();
    const cases: Array<[unknown, string[]]> = [
      [simpleDocument({ width_px: 0 }), ['body.document.width_px']],
      [simpleDocument({ height_px: 8193 }), ['body.document.height_px']],
      [simpleDocument({ width_px: 10.5 }), ['body.document.width_px']],
      [simpleDocument({ width_px: '64' }), ['body.document.width_px']],
      [{ width_px: 10, pages: [{ id: 'p' }] }, ['body.document.height_px']],
      [simpleDocument({ pages: [] }), ['body.document.pages']],
      [simpleDocument({ pages: 'one' }), ['body.document.pages']],
      [simpleDocument({ schema_version: 2 }), ['body.document.schema_version']],
      [simpleDocument({ colour: 'red' }), ['body.document.colour']],
      [simpleDocument({ export_defaults: { format: 'gif' } }), ['body.document.export_defaults.format']],
      [simpleDocument({}, { id: '' }), ['body.document.pages[0].id']],
      [simpleDocument({}, { layers: [{ id: 'a', type: 'sticker' }] }), ['body.document.pages[0].layers[0].type']],
      [simpleDocument({}, { layers: [{ id: 'a' }] }), ['body.document.pages[0].layers[0].type']],
      [
        simpleDocument({}, { layers: [{ id: 'a', type: 'text', transform: { x: 'left' } }] }),
        ['body.document.pages[0].layers[0].transform.x'],
      ],
      [
        simpleDocument({}, { layers: [{ id: 'a', type: 'text', text: { font_weight: 700.5 } }] }),
        ['body.document.pages[0].layers[0].text.font_weight'],
      ],
      [
        simpleDocument({}, { layers: [{ id: 'a', type: 'text', text: { curve: { reverse: 'yes' } } }] }),
        ['body.document.pages[0].layers[0].text.curve.reverse'],
      ],
      [
        simpleDocument({}, { layers: [{ id: 'a', type: 'image', image: { adjustments: { wheels: { gain: 'x' } } } }] }),
        ['body.document.pages[0].layers[0].image.adjustments.wheels.gain'],
      ],
      [
        simpleDocument({}, { layers: [{ id: 'a', type: 'paint', paint: { points: [{ x: 1, y: null }] } }] }),
        ['body.document.pages[0].layers[0].paint.points[0].y'],
      ],
      [simpleDocument({}, { layers: [{ id: 'a', type: 'shape', opacity: 2 }] }), ['body.document.pages[0].layers[0].opacity']],
      [
        simpleDocument({}, { layers: [{ id: 'a', type: 'shape', effects: { drop_shadow: { color: 5 } } }] }),
        ['body.document.pages[0].layers[0].effects.drop_shadow.color'],
      ],
      [
        simpleDocument({}, { layers: [{ id: 'a', type: 'shape', erase_mask: { strokes: [{ size: 1.5 }] } }] }),
        ['body.document.pages[0].layers[0].erase_mask.strokes[0].size'],
      ],
      [simpleDocument({}, { layers: [{ id: 'a', type: 'shape', glow: true }] }), ['body.document.pages[0].layers[0].glow']],
      [
        simpleDocument({}, { background: { gradient: { stops: [{ offset: 3 }] } } }),
        ['body.document.pages[0].background.gradient.stops[0].offset'],
      ],
      [simpleDocument({}, { color_grade: { curves: { redPoints: 1 } } }), ['body.document.pages[0].color_grade.curves.redPoints']],
      [simpleDocument({}, { guides: { horizontal: ['a'] } }), ['body.document.pages[0].guides.horizontal']],
      [
        simpleDocument(
          {},
          {
            layers: [
              { id: 'a', type: 'shape' },
              { id: 'a', type: 'shape' },
            ],
          },
        ),
        ['body.document.pages[0].layers[1].id'],
      ],
      [
        simpleDocument(
          {},
          {
            layers: [
              { id: 'a', type: 'shape', parent_id: 'b' },
              { id: 'b', type: 'shape' },
            ],
          },
        ),
        ['body.document.pages[0].layers[0].parent_id'],
      ],
      [{ width_px: 10, height_px: 10, pages: [{ id: 'p' }, { id: 'p' }] }, ['body.document.pages[1].id']],
      ['a document', ['body.document']],
      [null, ['body.document']],
    ];
    for (const [document, expected] of cases) {
      const { problem } = await invalidDocument(owner.token, workspaceId, document);
      try {
        expect(where(problem)).toEqual(expected);
      } catch {
        throw new Error(`${JSON.stringify(document)}: ${JSON.stringify(problem.errors)}`);
      }
    }
    // A group may parent layers; 1,000 layers per page at most.
    const grouped = await createDesign(
      owner.token,
      workspaceId,
      simpleDocument(
        {},
        {
          layers: [
            { id: 'g', type: 'group' },
            { id: 'a', type: 'shape', parent_id: 'g' },
          ],
        },
      ),
    );
    expect(grouped.document.pages[0].layers[1].parent_id).toBe('g');
    const many = Array.from({ length: 1001 }, (_, i) => ({ id: `l${i}`, type: 'shape' }));
    const { problem } = await invalidDocument(owner.token, workspaceId, simpleDocument({}, { layers: many }));
    expect(where(problem)).toEqual(['body.document.pages[0].layers']);
    // Body-level rules.
    const noName = await call('POST', '/image-editor/designs', {
      token: owner.token,
      body: { workspace_id: workspaceId, document: simpleDocument() },
    });
    expect(where(expectProblem(noName, 422))).toEqual(['body.name']);
    const badWorkspace = await call('POST', '/image-editor/designs', {
      token: owner.token,
      body: { workspace_id: 'nope', name: 'x', document: simpleDocument() },
    });
    expect(where(expectProblem(badWorkspace, 422))).toEqual(['body.workspace_id']);
    const extra = await call('POST', '/image-editor/designs', {
      token: owner.token,
      body: { workspace_id: workspaceId, name: 'x', document: simpleDocument(), owner: 'me' },
    });
    expect(where(expectProblem(extra, 422))).toEqual(['body.owner']);
    expectProblem(
      await call('POST', '/image-editor/designs', {
        token: owner.token,
        rawBody: '{"workspace_id":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
    );
    expectProblem(
      await call('POST', '/image-editor/designs', { token: owner.token, rawBody: 'x', headers: { 'content-type': 'text/plain' } }),
      415,
    );
  });

  it('lists designs most recently updated first, a page at a time, with cursors bound to the workspace', async () => {
    const { owner, workspaceId } = await createTenant();
    const designs = [];
    for (let i = 0; i < 3; i += 1) designs.push(await createDesign(owner.token, workspaceId, simpleDocument(), `D${i}`));
    // Saving the oldest makes it the most recent.
    const touched = await call('PATCH', `/image-editor/designs/${designs[0].id}`, { token: owner.token, body: { name: 'D0 again' } });
    expect(touched.status).toBe(200);
    const first = await call('GET', `/image-editor/designs?workspace_id=${workspaceId}&limit=2`, { token: owner.token });
    expect(first.status).toBe(200);
    await expectMatchesOwnSchema(first.body, 'ImageEditorDesignList');
    expect(first.body.designs.map((d: any) => d.id)).toEqual([designs[0].id, designs[2].id]);
    const { $schema: _s, ...touchedBody } = touched.body;
    expect(first.body.designs[0]).toEqual(touchedBody);
    const second = await call(
      'GET',
      `/image-editor/designs?workspace_id=${workspaceId}&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { token: owner.token },
    );
    expect(second.body.designs.map((d: any) => d.id)).toEqual([designs[1].id]);
    expect(second.body.next_cursor).toBe('');

    const other = await createTenant();
    const foreignCursor = await call(
      'GET',
      `/image-editor/designs?workspace_id=${other.workspaceId}&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { token: other.owner.token },
    );
    expect(where(expectProblem(foreignCursor, 422))).toEqual(['query.cursor']);
    const tampered = await call(
      'GET',
      `/image-editor/designs?workspace_id=${workspaceId}&cursor=${encodeURIComponent(first.body.next_cursor.slice(0, -2) + 'xx')}`,
      { token: owner.token },
    );
    expect(where(expectProblem(tampered, 422))).toEqual(['query.cursor']);
    for (const [query, location] of [
      ['limit=0', 'query.limit'],
      ['limit=101', 'query.limit'],
      ['limit=abc', 'query.limit'],
      ['sort=name', 'query.sort'],
    ]) {
      const bad = await call('GET', `/image-editor/designs?workspace_id=${workspaceId}&${query}`, { token: owner.token });
      expect(where(expectProblem(bad, 422))).toEqual([location]);
    }
    expect(where(expectProblem(await call('GET', '/image-editor/designs', { token: owner.token }), 422))).toEqual(['query.workspace_id']);
    expectProblem(
      await call('GET', `/image-editor/designs?workspace_id=${other.workspaceId}`, { token: owner.token }),
      403,
      'workspace_forbidden',
    );
    expectProblem(
      await call('GET', `/image-editor/designs?workspace_id=${randomUUID()}`, { token: owner.token }),
      403,
      'workspace_forbidden',
    );
  });

  it('PATCH records an autosave; checkpoints, E21 and restore keep the history; actors are named relative to the caller', async () => {
    const { owner, workspaceId } = await createTenant();
    const editor = await joinWorkspace(owner, workspaceId, 'editor', await registerUser({ display_name: 'Edith Editor' }));
    const design = await createDesign(owner.token, workspaceId);
    const changed = simpleDocument({ title: 'Second' });
    const saved = await call('PATCH', `/image-editor/designs/${design.id}`, { token: editor.token, body: { document: changed } });
    expect(saved.status).toBe(200);
    await expectMatchesOwnSchema(saved.body, 'ImageEditorDesign');
    expect(saved.body.document.title).toBe('Second');
    expect(saved.body.name).toBe('Poster');
    expect(saved.body.head_revision_id).not.toBe(design.head_revision_id);
    expect(Date.parse(saved.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(design.updated_at));

    const checkpoint = await call('POST', `/image-editor/designs/${design.id}/revisions`, {
      token: owner.token,
      body: { name: 'Approved' },
    });
    expect(checkpoint.status).toBe(201);
    await expectMatchesOwnSchema(checkpoint.body, 'RevisionSummary');
    expect(checkpoint.headers.get('location')).toBe(`/image-editor/designs/${design.id}/revisions/${checkpoint.body.id}`);
    expect(checkpoint.body).toEqual({
      $schema: schemaUrlFor('RevisionSummary'),
      id: expect.stringMatching(UUID),
      revision: 3,
      kind: 'checkpoint',
      name: 'Approved',
      actor: { is_current_user: true, name: expect.any(String) },
      created_at: expect.stringMatching(RFC3339_MS),
      expires_at: '',
    });

    // As the editor sees the history.
    const history = await call('GET', `/image-editor/designs/${design.id}/revisions`, { token: editor.token });
    expect(history.body.revisions.map((r: any) => [r.revision, r.kind])).toEqual([
      [3, 'checkpoint'],
      [2, 'autosave'],
      [1, 'checkpoint'],
    ]);
    const autosave = history.body.revisions[1];
    expect(autosave.actor).toEqual({ is_current_user: true, name: 'Edith Editor' });
    expect(Date.parse(autosave.expires_at) - Date.parse(autosave.created_at)).toBe(WEEK_MS);
    expect(history.body.revisions[0].actor.is_current_user).toBe(false);

    // E21: a revision with its document.
    const e21 = await call('GET', `/image-editor/designs/${design.id}/revisions/${autosave.id}`, { token: owner.token });
    expect(e21.status).toBe(200);
    await expectMatchesOwnSchema(e21.body, 'ImageEditorRevision');
    expect(e21.body).toEqual({
      $schema: schemaUrlFor('ImageEditorRevision'),
      cover_preview_media_id: '',
      document: { ...storedSimple(), title: 'Second' },
      summary: { ...autosave, actor: { is_current_user: false, name: 'Edith Editor' } },
    });
    const checkpointRead = await call('GET', `/image-editor/designs/${design.id}/revisions/${checkpoint.body.id}`, { token: owner.token });
    expect(checkpointRead.body.cover_preview_media_id).toMatch(UUID);
    expectProblem(
      await call('GET', `/image-editor/designs/${design.id}/revisions/${randomUUID()}`, { token: owner.token }),
      404,
      'not_found',
    );
    expectProblem(await call('GET', `/image-editor/designs/${design.id}/revisions/42`, { token: owner.token }), 404, 'not_found');

    // Restore revision 1: a new head with its document; revision 1 stays where it was.
    const restored = await call('POST', `/image-editor/designs/${design.id}/revisions/${design.head_revision_id}/restore`, {
      token: editor.token,
    });
    expect(restored.status).toBe(200);
    await expectMatchesOwnSchema(restored.body, 'ImageEditorDesign');
    expect(restored.body.document.title).toBe('');
    expect(restored.body.document.pages[0].preview_media_id).toBe('');
    const afterRestore = await call('GET', `/image-editor/designs/${design.id}/revisions`, { token: owner.token });
    expect(afterRestore.body.revisions.map((r: any) => [r.revision, r.kind])).toEqual([
      [4, 'restore'],
      [3, 'checkpoint'],
      [2, 'autosave'],
      [1, 'checkpoint'],
    ]);
    expect(afterRestore.body.revisions[0]).toMatchObject({
      id: restored.body.head_revision_id,
      name: 'Restored revision 1',
      expires_at: '',
    });
    expectProblem(await call('POST', `/image-editor/designs/${design.id}/revisions/${randomUUID()}/restore`, { token: owner.token }), 404);

    // Revisions page with cursors bound to the design.
    const page1 = await call('GET', `/image-editor/designs/${design.id}/revisions?limit=3`, { token: owner.token });
    expect(page1.body.revisions.map((r: any) => r.revision)).toEqual([4, 3, 2]);
    const page2 = await call(
      'GET',
      `/image-editor/designs/${design.id}/revisions?limit=3&cursor=${encodeURIComponent(page1.body.next_cursor)}`,
      { token: owner.token },
    );
    expect(page2.body.revisions.map((r: any) => r.revision)).toEqual([1]);
    expect(page2.body.next_cursor).toBe('');
    const otherDesign = await createDesign(owner.token, workspaceId);
    const wrongDesign = await call(
      'GET',
      `/image-editor/designs/${otherDesign.id}/revisions?cursor=${encodeURIComponent(page1.body.next_cursor)}`,
      { token: owner.token },
    );
    expect(where(expectProblem(wrongDesign, 422))).toEqual(['query.cursor']);

    // PATCH rules.
    expect(where(expectProblem(await call('PATCH', `/image-editor/designs/${design.id}`, { token: owner.token, body: {} }), 422))).toEqual([
      'body',
    ]);
    expect(
      where(expectProblem(await call('PATCH', `/image-editor/designs/${design.id}`, { token: owner.token, body: { name: '' } }), 422)),
    ).toEqual(['body.name']);
    const badDoc = await call('PATCH', `/image-editor/designs/${design.id}`, {
      token: owner.token,
      body: { document: simpleDocument({ width_px: 9000 }) },
    });
    expect(where(expectProblem(badDoc, 422))).toEqual(['body.document.width_px']);
    expect(
      where(
        expectProblem(await call('POST', `/image-editor/designs/${design.id}/revisions`, { token: owner.token, body: { name: 5 } }), 422),
      ),
    ).toEqual(['body.name']);
  });

  it('racing saves each get a revision of their own, and the head is the last one written', async () => {
    const { owner, workspaceId } = await createTenant();
    const design = await createDesign(owner.token, workspaceId);
    const saves = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('PATCH', `/image-editor/designs/${design.id}`, { token: owner.token, body: { document: simpleDocument({ title: `T${i}` }) } }),
      ),
    );
    expect(saves.map((r) => r.status)).toEqual(Array(8).fill(200));
    const history = await call('GET', `/image-editor/designs/${design.id}/revisions`, { token: owner.token });
    expect(history.body.revisions.map((r: any) => r.revision)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const head = await call('GET', `/image-editor/designs/${design.id}`, { token: owner.token });
    expect(head.body.head_revision_id).toBe(history.body.revisions[0].id);
    const newest = await call('GET', `/image-editor/designs/${design.id}/revisions/${history.body.revisions[0].id}`, {
      token: owner.token,
    });
    expect(newest.body.document).toEqual(head.body.document);
  });

  it('keeps the newest 50 autosaves of a design and drops expired ones', async () => {
    const { owner, workspaceId } = await createTenant();
    const design = await createDesign(owner.token, workspaceId);
    for (let i = 0; i < 52; i += 1) {
      const saved = await call('PATCH', `/image-editor/designs/${design.id}`, { token: owner.token, body: { name: `Save ${i}` } });
      expect(saved.status).toBe(200);
    }
    const all = await call('GET', `/image-editor/designs/${design.id}/revisions?limit=100`, { token: owner.token });
    const autosaves = all.body.revisions.filter((r: any) => r.kind === 'autosave');
    expect(autosaves).toHaveLength(50);
    expect(autosaves[0].revision).toBe(53);
    expect(autosaves[49].revision).toBe(4);
    expect(all.body.revisions[all.body.revisions.length - 1]).toMatchObject({ revision: 1, kind: 'checkpoint' });

    // An autosave past its week is gone (list and E21), before any prune.
    const expiring = autosaves[10];
    await db.query(`UPDATE creative.image_design_revisions SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.id]);
    const after = await call('GET', `/image-editor/designs/${design.id}/revisions?limit=100`, { token: owner.token });
    expect(after.body.revisions.map((r: any) => r.id)).not.toContain(expiring.id);
    expectProblem(await call('GET', `/image-editor/designs/${design.id}/revisions/${expiring.id}`, { token: owner.token }), 404);
  });

  it('viewers read but cannot write; deleting a design removes it and its revisions', async () => {
    const { owner, workspaceId } = await createTenant();
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    const design = await createDesign(owner.token, workspaceId);
    expect((await call('GET', `/image-editor/designs/${design.id}`, { token: viewer.token })).status).toBe(200);
    expect((await call('GET', `/image-editor/designs?workspace_id=${workspaceId}`, { token: viewer.token })).status).toBe(200);
    expect((await call('GET', `/image-editor/designs/${design.id}/revisions`, { token: viewer.token })).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/image-editor/designs', { workspace_id: workspaceId, name: 'V', document: simpleDocument() }],
      ['PATCH', `/image-editor/designs/${design.id}`, { name: 'V' }],
      ['POST', `/image-editor/designs/${design.id}/revisions`, {}],
      ['POST', `/image-editor/designs/${design.id}/revisions/${design.head_revision_id}/restore`, undefined],
      ['POST', `/image-editor/designs/${design.id}/export`, {}],
      ['DELETE', `/image-editor/designs/${design.id}`, undefined],
    ];
    for (const [method, path, body] of writes)
      expectProblem(await call(method, path, { token: viewer.token, body }), 403, 'insufficient_role');

    const deleted = await call('DELETE', `/image-editor/designs/${design.id}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    expectProblem(await call('GET', `/image-editor/designs/${design.id}`, { token: owner.token }), 404);
    expectProblem(await call('DELETE', `/image-editor/designs/${design.id}`, { token: owner.token }), 404);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM creative.image_design_revisions WHERE design_id = $1`, [design.id]);
    expect(rows[0].n).toBe(0);
    expectProblem(await call('GET', '/image-editor/designs/not-a-uuid', { token: owner.token }), 404);
    expectProblem(await call('GET', `/image-editor/designs/${design.id}`), 401);
  });

  it("organization deletion purges the organization's designs, revisions and templates (and nobody else's)", async () => {
    const tenant = await createTenant();
    const bystander = await createTenant();
    const design = await createDesign(tenant.owner.token, tenant.workspaceId);
    await call('PATCH', `/image-editor/designs/${design.id}`, { token: tenant.owner.token, body: { name: 'Saved' } });
    const template = await call('POST', '/image-editor/templates', {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId, name: 'T', category: 'c', document: simpleDocument() },
    });
    expect(template.status).toBe(201);
    const kept = await createDesign(bystander.owner.token, bystander.workspaceId);
    const rows = async (workspaceId: string) =>
      (
        await db.query(
          `SELECT (SELECT count(*)::int FROM creative.image_designs WHERE workspace_id = $1) AS designs,
                  (SELECT count(*)::int FROM creative.image_design_revisions WHERE workspace_id = $1) AS revisions,
                  (SELECT count(*)::int FROM creative.image_templates WHERE workspace_id = $1) AS templates`,
          [workspaceId],
        )
      ).rows[0];
    expect(await rows(tenant.workspaceId)).toEqual({ designs: 1, revisions: 2, templates: 1 });
    expect((await call('DELETE', `/organizations/${tenant.organizationId}`, { token: tenant.owner.token })).status).toBe(202);
    await eventually(async () => expect(await rows(tenant.workspaceId)).toEqual({ designs: 0, revisions: 0, templates: 0 }), 15_000);
    expect(await rows(bystander.workspaceId)).toEqual({ designs: 1, revisions: 1, templates: 0 });
    expect((await call('GET', `/image-editor/designs/${kept.id}`, { token: bystander.owner.token })).status).toBe(200);
  });

  it('another tenant cannot see or touch a design, its revisions or its exports', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const design = await createDesign(owner.token, workspaceId);
    const checkpoint = await call('POST', `/image-editor/designs/${design.id}/revisions`, { token: owner.token, body: { name: 'Mine' } });
    const url = `/image-editor/designs/${design.id}`;
    await expectTenantIsolation({
      url,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      ownerView: [url, `${url}/revisions`, `${url}/revisions/${checkpoint.body.id}`, `/image-editor/designs?workspace_id=${workspaceId}`],
      attempts: [
        { method: 'PATCH', body: { name: 'Stolen' } },
        { method: 'PATCH', body: { document: simpleDocument() } },
        { method: 'POST', path: `${url}/revisions`, body: { name: 'x' } },
        { method: 'GET', path: `${url}/revisions` },
        { method: 'GET', path: `${url}/revisions/${checkpoint.body.id}` },
        { method: 'POST', path: `${url}/revisions/${checkpoint.body.id}/restore` },
        { method: 'POST', path: `${url}/export`, body: { format: 'png' } },
        { method: 'GET', path: `/image-editor/designs?workspace_id=${workspaceId}`, status: 403 },
        {
          method: 'POST',
          path: '/image-editor/designs',
          body: { workspace_id: workspaceId, name: 'x', document: simpleDocument() },
          status: 403,
        },
        { method: 'DELETE' },
      ],
    });
  });

  it('the admin directory (E9) and overview (E7) count image designs', async () => {
    const admin = await registerAdmin();
    const { owner, workspaceId } = await createTenant();
    const before = (await adminCall('GET', '/admin/overview', { token: admin.token })).body;
    await createDesign(owner.token, workspaceId);
    await createDesign(owner.token, workspaceId, simpleDocument(), 'Second');
    const page = await adminCall('GET', `/admin/users?search=${encodeURIComponent(owner.email)}`, { token: admin.token });
    expect(page.status).toBe(200);
    await expectMatchesOwnSchema(page.body, 'InstanceUserPage');
    expect(page.body.users).toEqual([expect.objectContaining({ id: owner.id, image_design_count: 2 })]);
    const after = await adminCall('GET', '/admin/overview', { token: admin.token });
    await expectMatchesOwnSchema(after.body, 'InstanceOverview');
    expect(after.body.usage_complete).toBe(true);
    expect(after.body.total_image_designs).toBeGreaterThanOrEqual(before.total_image_designs + 2);
  });
});
