import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, RFC3339_MS, schemaUrlFor } from '../support/api.js';
import { simpleDocument } from '../support/image-editor.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { where } from '../support/image-editor.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const BUILT_IN = [
  ['instagram-square', 1080, 1080],
  ['instagram-portrait', 1080, 1350],
  ['story-reel-slide', 1080, 1920],
  ['linkedin-square', 1200, 1200],
  ['linkedin-landscape', 1200, 627],
  ['x-landscape', 1600, 900],
  ['youtube-thumbnail', 1280, 720],
] as const;

const createTemplate = (token: string, workspaceId: string, name: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/image-editor/templates', {
    token,
    body: { workspace_id: workspaceId, name, category: 'ads', document: simpleDocument({ preset_key: 'custom' }), ...extra },
  });

describe('image editor: templates (E22)', () => {
  it('lists the built-in set first, then the workspace templates newest first; can_edit by role', async () => {
    const { owner, workspaceId } = await createTenant();
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    const editor = await joinWorkspace(owner, workspaceId, 'editor');
    const empty = await call('GET', `/image-editor/templates?workspace_id=${workspaceId}`, { token: owner.token });
    expect(empty.status).toBe(200);
    expect(empty.body.$schema).toBe(schemaUrlFor('ListImageEditorTemplatesOutputBody'));
    await expectMatchesOwnSchema(empty.body, 'ListImageEditorTemplatesOutputBody');
    expect(empty.body.can_edit).toBe(true);
    expect(empty.body.templates.map((t: any) => [t.id, t.document.width_px, t.document.height_px])).toEqual(BUILT_IN.map((b) => [...b]));
    for (const template of empty.body.templates) {
      expect(template).toEqual({
        id: template.preset_key,
        built_in: true,
        workspace_id: '',
        name: expect.any(String),
        category: expect.any(String),
        preset_key: template.id,
        preview_media_id: '',
        document: expect.objectContaining({
          preset_key: template.id,
          schema_version: 1,
          pages: [expect.objectContaining({ id: 'page-1' })],
        }),
        created_at: expect.stringMatching(RFC3339_MS),
        updated_at: expect.stringMatching(RFC3339_MS),
      });
      // Every built-in document is a valid design document.
      const design = await call('POST', '/image-editor/designs', {
        token: owner.token,
        body: { workspace_id: workspaceId, name: 'Check', document: template.document },
      });
      expect(design.status).toBe(201);
      expect(design.body.document).toEqual(template.document);
    }

    const first = await createTemplate(editor.token, workspaceId, 'First');
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toBe(`/image-editor/templates/${first.body.id}`);
    await expectMatchesOwnSchema(first.body, 'ImageEditorTemplate');
    expect(first.body).toEqual({
      $schema: schemaUrlFor('ImageEditorTemplate'),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      built_in: false,
      workspace_id: workspaceId,
      name: 'First',
      category: 'ads',
      preset_key: 'custom',
      preview_media_id: '',
      document: expect.objectContaining({ width_px: 64, height_px: 48, preset_key: 'custom', title: '' }),
      created_at: expect.stringMatching(RFC3339_MS),
      updated_at: first.body.created_at,
    });
    const second = await createTemplate(owner.token, workspaceId, 'Second');
    const listed = await call('GET', `/image-editor/templates?workspace_id=${workspaceId}`, { token: viewer.token });
    expect(listed.body.can_edit).toBe(false);
    expect(listed.body.templates.map((t: any) => t.id)).toEqual([...BUILT_IN.map((b) => b[0]), second.body.id, first.body.id]);
    const { $schema: _s, ...firstBody } = first.body;
    expect(listed.body.templates[BUILT_IN.length + 1]).toEqual(firstBody);
    expect((await call('GET', `/image-editor/templates?workspace_id=${workspaceId}`, { token: editor.token })).body.can_edit).toBe(true);

    // One template: built-in by key, workspace's by id.
    const one = await call('GET', `/image-editor/templates/${first.body.id}`, { token: viewer.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(first.body);
    const builtIn = await call('GET', '/image-editor/templates/youtube-thumbnail', { token: viewer.token });
    expect(builtIn.body).toMatchObject({ $schema: schemaUrlFor('ImageEditorTemplate'), id: 'youtube-thumbnail', built_in: true });
    expectProblem(await call('GET', '/image-editor/templates/no-such-preset', { token: owner.token }), 404);
    expectProblem(await call('GET', `/image-editor/templates/${randomUUID()}`, { token: owner.token }), 404);
  });

  it('validates template bodies; viewers and outsiders cannot create or delete; built-ins cannot be deleted', async () => {
    const { owner, workspaceId } = await createTenant();
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ category: undefined }, ['body.category']],
      [{ category: '' }, ['body.category']],
      [{ name: 'x'.repeat(201) }, ['body.name']],
      [{ document: undefined }, ['body.document']],
      [{ document: simpleDocument({}, { layers: [{ id: 'a', type: 'video' }] }) }, ['body.document.pages[0].layers[0].type']],
      [{ document: simpleDocument({ width_px: -1 }) }, ['body.document.width_px']],
      [{ preview_media_id: 'x' }, ['body.preview_media_id']],
      // At most 81 KiB stored (a 50th of the 4 MiB list budget: the menu is one NATS message).
      [
        {
          document: simpleDocument(
            { title: 'x'.repeat(200) },
            { layers: Array.from({ length: 9 }, (_, i) => ({ id: `t${i}`, type: 'text', text: { text: 'y'.repeat(9_500) } })) },
          ),
        },
        ['body.document'],
      ],
    ];
    for (const [extra, expected] of cases) {
      const response = await createTemplate(owner.token, workspaceId, 'T', extra);
      expect(where(expectProblem(response, 422, 'validation_failed'))).toEqual(expected);
    }
    const large = simpleDocument(
      {},
      { layers: Array.from({ length: 8 }, (_, i) => ({ id: `t${i}`, type: 'text', text: { text: 'y'.repeat(9_500) } })) },
    );
    expect((await createTemplate(owner.token, workspaceId, 'Large', { document: large })).status).toBe(201);
    expectProblem(await createTemplate(viewer.token, workspaceId, 'T'), 403, 'insufficient_role');
    const other = await createTenant();
    expectProblem(await createTemplate(other.owner.token, workspaceId, 'T'), 403, 'workspace_forbidden');
    expectProblem(
      await call('GET', `/image-editor/templates?workspace_id=${workspaceId}`, { token: other.owner.token }),
      403,
      'workspace_forbidden',
    );
    expect(where(expectProblem(await call('GET', '/image-editor/templates?workspace_id=x', { token: owner.token }), 422))).toEqual([
      'query.workspace_id',
    ]);

    // At most 50 per workspace ('Large' is the first); a menu of 50 templates near the size cap still crosses NATS in one message.
    for (let i = 1; i < 50; i += 1) expect((await createTemplate(owner.token, workspaceId, `T${i}`, { document: large })).status).toBe(201);
    expectProblem(await createTemplate(owner.token, workspaceId, 'One too many'), 409, 'too_many_templates');
    const full = await call('GET', `/image-editor/templates?workspace_id=${workspaceId}`, { token: owner.token });
    expect(full.body.templates).toHaveLength(57);
    expect(JSON.stringify(full.body).length).toBeGreaterThan(3.5 * 1024 * 1024);
    expect((await call('DELETE', `/image-editor/templates/${full.body.templates[7].id}`, { token: owner.token })).status).toBe(204);

    const template = await createTemplate(owner.token, workspaceId, 'Doomed');
    expectProblem(await call('DELETE', `/image-editor/templates/${template.body.id}`, { token: viewer.token }), 403, 'insufficient_role');
    expectProblem(await call('DELETE', '/image-editor/templates/instagram-square', { token: owner.token }), 409, 'template_built_in');
    expect((await call('DELETE', `/image-editor/templates/${template.body.id}`, { token: owner.token })).status).toBe(204);
    expectProblem(await call('DELETE', `/image-editor/templates/${template.body.id}`, { token: owner.token }), 404);
    expectProblem(await call('DELETE', '/image-editor/templates/nothing', { token: owner.token }), 404);
    const after = await call('GET', `/image-editor/templates?workspace_id=${workspaceId}`, { token: owner.token });
    expect(after.body.templates.map((t: any) => t.id)).not.toContain(template.body.id);
  });

  it('another tenant cannot see or delete a workspace template', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const template = await createTemplate(owner.token, workspaceId, 'Private');
    await expectTenantIsolation({
      url: `/image-editor/templates/${template.body.id}`,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      ownerView: [`/image-editor/templates/${template.body.id}`, `/image-editor/templates?workspace_id=${workspaceId}`],
      attempts: [
        { method: 'DELETE' },
        { method: 'GET', path: `/image-editor/templates?workspace_id=${workspaceId}`, status: 403 },
        {
          method: 'POST',
          path: '/image-editor/templates',
          body: { workspace_id: workspaceId, name: 'x', category: 'c', document: simpleDocument() },
          status: 403,
        },
      ],
    });
  });
});
