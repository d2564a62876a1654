import { describe, expect, it } from '@jest/globals';
import { baseUrl, call, expectProblem, locations, sendOversized } from '../support/api.js';
import { createDesign, simpleDocument, where } from '../support/image-editor.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';
import { createProject, getProject, newProject, replaceProject } from './video-fixtures.js';

/**
 * Contract §1: editor and video documents up to 5 MiB, every other JSON body up to 1 MiB (413 beyond).
 * The e2e NATS runs with max_payload 8 MiB (libs/testing startPrivateNats), as the platform requires.
 */
const MiB = 1024 * 1024;
const DOCUMENT_LIMIT = 5 * MiB;
const JSON_HEADERS = { 'content-type': 'application/json' };

/** `body` as JSON padded with trailing whitespace (still valid JSON) to exactly `bytes`. */
function padded(body: unknown, bytes: number): string {
  const json = JSON.stringify(body);
  expect(Buffer.byteLength(json)).toBeLessThanOrEqual(bytes);
  return json + ' '.repeat(bytes - Buffer.byteLength(json));
}

/**
 * A video document of about `bytes` of JSON in a shape of its own (the service prescribes none): 1,000
 * captions carrying `letter`s, with members at several depths.
 */
function bigVideoDocument(bytes: number, letter = 'v') {
  const perClip = Math.floor(bytes / 1000) - 120;
  const captions = Array.from({ length: 1000 }, (_, i) => ({
    at: { from: i * 0.06, to: (i + 1) * 0.06 },
    style: { karaoke: i % 2 === 0, font: ['Inter', 700] },
    words: letter.repeat(perClip),
  }));
  return { format: 'cutter/v3', editor: { zoom: 1.5, panels: { left: null } }, timeline: { layers: [{ name: 'Captions', captions }] } };
}

/** A valid image document of about `bytes` of JSON: one page of text layers of 10,000 `letter`s each. */
function bigImageDocument(bytes: number, letter = 'i') {
  const layers = Array.from({ length: Math.floor(bytes / 10_060) }, (_, i) => ({
    id: `t${i}`,
    type: 'text',
    text: { text: letter.repeat(10_000) },
  }));
  return simpleDocument({}, { layers });
}

describe('creative documents up to 5 MiB (docs/decisions.md)', () => {
  it('creates, replaces and reads back a 4.5 MiB video project document intact', async () => {
    const { owner, workspaceId } = await createTenant();
    const first = bigVideoDocument(4.5 * MiB, 'a');
    expect(JSON.stringify(first).length).toBeGreaterThan(4.4 * MiB);
    const created = await createProject(owner.token, { workspace_id: workspaceId, name: 'Long captions', document: first });
    expect(created.status).toBe(201);
    await expectMatchesOwnSchema(created.body, 'VideoProject');
    expect(created.body.document).toEqual(first);
    expect(created.body.head_revision).toBe(1);

    const second = bigVideoDocument(4.5 * MiB, 'b');
    const replaced = await replaceProject(owner.token, created.body.id, {
      workspace_id: workspaceId,
      document: second,
      expected_head_revision: 1,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.head_revision).toBe(2);
    expect(replaced.body.document).toEqual(second);
    const read = await getProject(owner.token, created.body.id);
    expect(read.status).toBe(200);
    await expectMatchesOwnSchema(read.body, 'VideoProject');
    expect(read.body.document).toEqual(second);
    const revision1 = await call('GET', `/video-projects/${created.body.id}/revisions/1`, { token: owner.token });
    expect(revision1.status).toBe(200);
    expect(revision1.body.document).toEqual(first);
    const revision2 = await call('GET', `/video-projects/${created.body.id}/revisions/2`, { token: owner.token });
    expect(revision2.body.document).toEqual(second);
    // E19 copies 4.5 MiB within the service: the same document again.
    const restored = await call('POST', `/video-projects/${created.body.id}/restore-revision`, {
      token: owner.token,
      body: { workspace_id: workspaceId, revision: 1 },
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual(expect.objectContaining({ head_revision: 3, document: first }));
    await replaceProject(owner.token, created.body.id, { workspace_id: workspaceId, document: second, expected_head_revision: 3 });

    // Viewers cannot write, another tenant cannot see it, however large the body.
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expectProblem(
      await replaceProject(viewer.token, created.body.id, { workspace_id: workspaceId, document: first, expected_head_revision: 4 }),
      403,
    );
    const other = await createTenant();
    expectProblem(
      await replaceProject(other.owner.token, created.body.id, { workspace_id: workspaceId, document: first, expected_head_revision: 4 }),
      404,
      'not_found',
    );
    expect((await getProject(owner.token, created.body.id)).body.head_revision).toBe(4);
  });

  it('refuses a video document over 5 MiB once stored (422 at body.document), though its body was under 5 MiB', async () => {
    const { owner, workspaceId } = await createTenant();
    // `1e20` is 4 characters as sent and 21 as stored: 260,000 of them are 1.3 MB sent and 5.7 MB stored.
    const body = JSON.stringify({
      workspace_id: workspaceId,
      name: 'Inflating',
      document: { values: Array.from({ length: 260_000 }, () => 1e20) },
    }).replaceAll('100000000000000000000', '1e20');
    expect(Buffer.byteLength(body)).toBeLessThan(2 * MiB);
    const response = await call('POST', '/video-projects', { token: owner.token, rawBody: body, headers: JSON_HEADERS });
    expect(locations(expectProblem(response, 422, 'validation_failed'))).toEqual(['body.document']);
    expect((await call('GET', `/video-projects?workspace_id=${workspaceId}`, { token: owner.token })).body.projects).toEqual([]);
  });

  it('creates, replaces and reads back a 4.5 MiB image design intact; a document over 5 MiB once stored is 422', async () => {
    const { owner, workspaceId } = await createTenant();
    const first = bigImageDocument(4.5 * MiB, 'a');
    expect(JSON.stringify(first).length).toBeGreaterThan(4.4 * MiB);
    const design = await createDesign(owner.token, workspaceId, first, 'Big poster');
    await expectMatchesOwnSchema(design, 'ImageEditorDesign');
    const sentLayers = (first.pages as Array<{ layers: Array<{ id: string; text: { text: string } }> }>)[0].layers;
    const layersOf = (document: any) => document.pages[0].layers.map((l: any) => ({ id: l.id, text: l.text.text }));
    expect(layersOf(design.document)).toEqual(sentLayers.map((l) => ({ id: l.id, text: l.text.text })));
    const read = await call('GET', `/image-editor/designs/${design.id}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.document).toEqual(design.document);

    const second = bigImageDocument(4.5 * MiB, 'b');
    const patched = await call('PATCH', `/image-editor/designs/${design.id}`, { token: owner.token, body: { document: second } });
    expect(patched.status).toBe(200);
    expect(layersOf(patched.body.document)).toEqual(layersOf(second));
    const reread = await call('GET', `/image-editor/designs/${design.id}`, { token: owner.token });
    expect(reread.body.document).toEqual(patched.body.document);
    expect(Buffer.byteLength(JSON.stringify(reread.body.document))).toBeGreaterThan(4.5 * MiB);

    // Under the body limit, over 5 MiB once the defaults are filled in (pages of 1,000 bare shapes): 422, nothing changes.
    const shapes = (p: number) => ({ id: `s${p}`, layers: Array.from({ length: 1000 }, (_, i) => ({ id: `${i}`, type: 'shape' })) });
    const swollen = { ...first, pages: [...(first.pages as unknown[]), shapes(1), shapes(2), shapes(3)] };
    expect(JSON.stringify({ workspace_id: workspaceId, name: 'Swollen', document: swollen }).length).toBeLessThan(DOCUMENT_LIMIT);
    const refused = await call('POST', '/image-editor/designs', {
      token: owner.token,
      body: { workspace_id: workspaceId, name: 'Swollen', document: swollen },
    });
    expect(where(expectProblem(refused, 422, 'validation_failed'))).toEqual(['body.document']);
    const refusedPatch = await call('PATCH', `/image-editor/designs/${design.id}`, { token: owner.token, body: { document: swollen } });
    expect(where(expectProblem(refusedPatch, 422, 'validation_failed'))).toEqual(['body.document']);
    expect((await call('GET', `/image-editor/designs/${design.id}`, { token: owner.token })).body.document).toEqual(patched.body.document);

    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expectProblem(await call('PATCH', `/image-editor/designs/${design.id}`, { token: viewer.token, body: { document: first } }), 403);
    const other = await createTenant();
    expectProblem(
      await call('PATCH', `/image-editor/designs/${design.id}`, { token: other.owner.token, body: { document: first } }),
      404,
      'not_found',
    );
  });

  it('stops a page of designs once its documents pass 4 MiB (half a NATS message)', async () => {
    const { owner, workspaceId } = await createTenant();
    await createDesign(owner.token, workspaceId, simpleDocument(), 'small');
    await createDesign(owner.token, workspaceId, bigImageDocument(2.2 * MiB), 'big 1');
    await createDesign(owner.token, workspaceId, bigImageDocument(2.2 * MiB), 'big 2');
    const page1 = await call('GET', `/image-editor/designs?workspace_id=${workspaceId}`, { token: owner.token });
    expect(page1.status).toBe(200);
    await expectMatchesOwnSchema(page1.body, 'ImageEditorDesignList');
    expect(page1.body.designs.map((d: any) => d.name)).toEqual(['big 2']);
    const page2 = await call(
      'GET',
      `/image-editor/designs?workspace_id=${workspaceId}&cursor=${encodeURIComponent(page1.body.next_cursor)}`,
      { token: owner.token },
    );
    expect(page2.body.designs.map((d: any) => d.name)).toEqual(['big 1', 'small']);
    expect(page2.body.next_cursor).toBe('');
  });

  it('takes document bodies of exactly 5 MiB and answers 413 to one byte more, on every document route', async () => {
    const { owner, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const design = await createDesign(owner.token, workspaceId);
    const video = bigVideoDocument(4.5 * MiB);
    const image = bigImageDocument(4.5 * MiB);
    const routes: Array<[string, string, unknown, number]> = [
      ['POST', '/video-projects', { workspace_id: workspaceId, name: 'Edge', document: video }, 201],
      ['PUT', `/video-projects/${project.id}`, { workspace_id: workspaceId, document: video, expected_head_revision: 1 }, 200],
      ['POST', '/image-editor/designs', { workspace_id: workspaceId, name: 'Edge', document: image }, 201],
      ['PATCH', `/image-editor/designs/${design.id}`, { document: image }, 200],
      // A template is read by the gateway up to 5 MiB, then refused by the service (at most 81 KiB stored).
      ['POST', '/image-editor/templates', { workspace_id: workspaceId, name: 'Edge', category: 'ads', document: image }, 422],
    ];
    for (const [method, path, body, status] of routes) {
      const atLimit = await call(method, path, { token: owner.token, rawBody: padded(body, DOCUMENT_LIMIT), headers: JSON_HEADERS });
      expect({ method, path, status: atLimit.status }).toEqual({ method, path, status });
      const over = await sendOversized(baseUrl(), method, path, owner.token, padded(body, DOCUMENT_LIMIT + 1));
      expect(over.contentType).toMatch(/^application\/problem\+json/);
      expect({ method, path, over }).toMatchObject({
        method,
        path,
        over: { status: 413, problem: { status: 413, code: 'body_too_large', title: 'Content Too Large' } },
      });
    }
    // The 413s changed nothing: one replace, one patch.
    expect((await getProject(owner.token, project.id)).body.head_revision).toBe(2);
  });

  it('answers 413, not 503, to a body under 5 MiB whose JSON grows past a NATS message when re-encoded', async () => {
    const { owner, workspaceId } = await createTenant();
    // `1e20` is sent as 4 characters and forwarded as 21 (`100000000000000000000`): 37,000 such layers are
    // about 5 MB as sent and 9.7 MB forwarded, more than the 8 MiB a NATS message carries.
    const layer = (i: number) => ({
      id: `${i}`,
      type: 'shape',
      transform: { x: 1e20, y: 1e20, width: 1e20, height: 1e20, rotation: 1e20 },
      mask: { inset: 1e20, radius: 1e20 },
    });
    const pages = Array.from({ length: 37 }, (_, p) => ({ id: `p${p}`, layers: Array.from({ length: 1000 }, (_, i) => layer(i)) }));
    const body = JSON.stringify({
      workspace_id: workspaceId,
      name: 'Inflating',
      document: { width_px: 64, height_px: 48, pages },
    }).replaceAll('100000000000000000000', '1e20');
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(DOCUMENT_LIMIT);
    expect(JSON.stringify(JSON.parse(body)).length).toBeGreaterThan(8 * MiB);
    const response = await call('POST', '/image-editor/designs', { token: owner.token, rawBody: body, headers: JSON_HEADERS });
    expect(response.body).toMatchObject({ status: 413, code: 'body_too_large' });
    expect((await call('GET', `/image-editor/designs?workspace_id=${workspaceId}`, { token: owner.token })).body.designs).toEqual([]);
  });

  it('keeps every other JSON route at 1 MiB', async () => {
    const { owner, workspaceId } = await createTenant();
    const body = { workspace_id: workspaceId, content_profile: 'short_text', title: 'Hello', source_text: 'x'.repeat(1.5 * MiB) };
    expect(await sendOversized(baseUrl(), 'POST', '/publications', owner.token, JSON.stringify(body))).toMatchObject({
      status: 413,
      problem: { code: 'body_too_large' },
    });
    // Another non-document route of the creative family too: restoring a revision carries no document.
    const project = await newProject(owner.token, workspaceId);
    const restore = { workspace_id: workspaceId, revision: 1 };
    expect(
      await sendOversized(baseUrl(), 'POST', `/video-projects/${project.id}/restore-revision`, owner.token, padded(restore, MiB + 1)),
    ).toMatchObject({
      status: 413,
      problem: { code: 'body_too_large' },
    });
    const withinLimit = await call('POST', `/video-projects/${project.id}/restore-revision`, {
      token: owner.token,
      rawBody: padded(restore, MiB),
      headers: JSON_HEADERS,
    });
    expect(withinLimit.status).toBe(200);
  });
});
