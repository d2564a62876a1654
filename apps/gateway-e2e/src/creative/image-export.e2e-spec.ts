import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { baseUrl, call, expectProblem, RFC3339_MS, schemaUrlFor } from '../support/api.js';
import { createDesign, expectColor, pixelsOf, simpleDocument, solidPng } from '../support/image-editor.js';
import { uploadMedia } from '../support/media.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { where } from '../support/image-editor.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const contentOf = async (id: string, token: string): Promise<Buffer> => {
  const response = await fetch(`${baseUrl()}/media/${id}/content`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};

const exportDesign = (token: string, id: string, body: unknown = {}) => call('POST', `/image-editor/designs/${id}/export`, { token, body });

describe('image editor: export rendering', () => {
  it('renders the first page (background, shape, text, an image from media) into a PNG media item of the workspace', async () => {
    const { owner, workspaceId } = await createTenant();
    const editor = await joinWorkspace(owner, workspaceId, 'editor');
    const green = await uploadMedia(owner.token, workspaceId, solidPng(10, 10, '#00ff00'), 'green.png');
    const document = {
      width_px: 200,
      height_px: 100,
      pages: [
        {
          id: 'cover',
          background: { type: 'color', color: '#ff0000' },
          layers: [
            { id: 'box', type: 'shape', transform: { x: 10, y: 10, width: 40, height: 30 }, shape: { kind: 'rectangle', fill: '#0000ff' } },
            { id: 'photo', type: 'image', transform: { x: 120, y: 10, width: 40, height: 40 }, image: { media_id: green.id, fit: 'fill' } },
            {
              id: 'hidden',
              type: 'shape',
              visible: false,
              transform: { x: 0, y: 0, width: 200, height: 100 },
              shape: { kind: 'rectangle', fill: '#000000' },
            },
            {
              id: 'title',
              type: 'text',
              transform: { x: 10, y: 60, width: 180, height: 36 },
              text: { text: 'HELLO', color: '#ffffff', font_size: 30, font_weight: 700 },
            },
          ],
        },
        { id: 'back', background: { type: 'color', color: '#00ffff' } },
      ],
    };
    const design = await createDesign(owner.token, workspaceId, document, 'Render me');
    const exported = await exportDesign(editor.token, design.id);
    expect(exported.status).toBe(201);
    await expectMatchesOwnSchema(exported.body, 'MediaItem');
    expect(exported.headers.get('location')).toBe(`/media/${exported.body.id}`);
    expect(exported.body).toEqual({
      $schema: schemaUrlFor('MediaItem'),
      id: expect.any(String),
      workspace_id: workspaceId,
      filename: `${design.id}-cover.png`,
      mime_type: 'image/png',
      size: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      status: 'ready',
      width: 200,
      height: 100,
      duration_ms: 0,
      tag_ids: [],
      created_at: expect.stringMatching(RFC3339_MS),
    });
    const png = await pixelsOf(await contentOf(exported.body.id, owner.token));
    expect([png.width, png.height]).toEqual([200, 100]);
    expectColor(png.at(2, 2), [255, 0, 0]); // background
    expectColor(png.at(30, 25), [0, 0, 255]); // shape
    expectColor(png.at(140, 30), [0, 255, 0]); // image from media
    // Text: white glyph pixels in the text box, and none outside it.
    let white = 0;
    for (let x = 10; x < 190; x += 1)
      for (let y = 60; y < 96; y += 1)
        if (
          png
            .at(x, y)
            .slice(0, 3)
            .every((c) => c > 200)
        )
          white += 1;
    expect(white).toBeGreaterThan(100);
    expectColor(png.at(100, 55), [255, 0, 0]);

    // The page now names its latest export; the library lists the item.
    const after = await call('GET', `/image-editor/designs/${design.id}`, { token: owner.token });
    expect(after.body.document.pages[0].latest_export_media_id).toBe(exported.body.id);
    expect(after.body.document.pages[1].latest_export_media_id).toBe('');
    const library = await call('GET', `/media?workspace_id=${workspaceId}`, { token: owner.token });
    expect(library.body.items.map((item: any) => item.id)).toContain(exported.body.id);

    // Another page, as JPEG (transparent pixels on the matte).
    const back = await exportDesign(owner.token, design.id, { page_id: 'back', format: 'jpeg' });
    expect(back.status).toBe(201);
    expect(back.body).toMatchObject({ filename: `${design.id}-back.jpg`, mime_type: 'image/jpeg', width: 200, height: 100 });
    const jpeg = await pixelsOf(await contentOf(back.body.id, owner.token));
    expectColor(jpeg.at(100, 50), [0, 255, 255], 12);
  });

  it('renders several exports at once (more than the replica renders at a time: they queue)', async () => {
    const { owner, workspaceId } = await createTenant();
    const designs = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        createDesign(owner.token, workspaceId, simpleDocument({}, { background: { type: 'color', color: `#0${i}0000` } })),
      ),
    );
    const exported = await Promise.all(designs.map((design) => exportDesign(owner.token, design.id)));
    expect(exported.map((r) => r.status)).toEqual(Array(5).fill(201));
    expect(new Set(exported.map((r) => r.body.id)).size).toBe(5);
    // The same page again is the same bytes: media deduplicates it to the item it has.
    const again = await exportDesign(owner.token, designs[0].id);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(exported[0].body.id);
  });

  it('a checkpoint renders the first page as the preview of the design and of the revision', async () => {
    const { owner, workspaceId } = await createTenant();
    const design = await createDesign(owner.token, workspaceId);
    const checkpoint = await call('POST', `/image-editor/designs/${design.id}/revisions`, { token: owner.token, body: {} });
    expect(checkpoint.status).toBe(201);
    const read = await call('GET', `/image-editor/designs/${design.id}`, { token: owner.token });
    expect(read.body.preview_media_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(read.body.document.pages[0].preview_media_id).toBe(read.body.preview_media_id);
    const revision = await call('GET', `/image-editor/designs/${design.id}/revisions/${checkpoint.body.id}`, { token: owner.token });
    expect(revision.body.cover_preview_media_id).toBe(read.body.preview_media_id);
    const preview = await pixelsOf(await contentOf(read.body.preview_media_id, owner.token));
    expect([preview.width, preview.height]).toEqual([64, 48]);
    expectColor(preview.at(1, 1), [255, 0, 0]);
    expectColor(preview.at(15, 15), [0, 0, 255]);
    // A page that cannot be rendered still gets its checkpoint, without a preview.
    const unknownImage = await createDesign(
      owner.token,
      workspaceId,
      simpleDocument({}, { layers: [{ id: 'i', type: 'image', image: { media_id: randomUUID() } }] }),
    );
    const noPreview = await call('POST', `/image-editor/designs/${unknownImage.id}/revisions`, { token: owner.token, body: { name: 'x' } });
    expect(noPreview.status).toBe(201);
    expect((await call('GET', `/image-editor/designs/${unknownImage.id}`, { token: owner.token })).body.preview_media_id).toBe('');
  });

  it("refuses bad export input, images that are not the workspace's, and pages over the render budget", async () => {
    const { owner, workspaceId } = await createTenant();
    const other = await createTenant();
    const design = await createDesign(owner.token, workspaceId);
    expect(where(expectProblem(await exportDesign(owner.token, design.id, { page_id: 'nope' }), 422, 'validation_failed'))).toEqual([
      'body.page_id',
    ]);
    expect(where(expectProblem(await exportDesign(owner.token, design.id, { format: 'gif' }), 422))).toEqual(['body.format']);
    expect(where(expectProblem(await exportDesign(owner.token, design.id, { scale: 2 }), 422))).toEqual(['body.scale']);
    expect(where(expectProblem(await exportDesign(owner.token, design.id, { page_id: 7 }), 422))).toEqual(['body.page_id']);
    expectProblem(await exportDesign(owner.token, randomUUID()), 404);

    const foreignItem = await uploadMedia(other.owner.token, other.workspaceId, solidPng(4, 4, '#123456'));
    const mine = await uploadMedia(owner.token, workspaceId, solidPng(4, 4, '#654321'));
    const images = await createDesign(
      owner.token,
      workspaceId,
      simpleDocument(
        {},
        {
          background: { type: 'image', image: { media_id: randomUUID() } },
          layers: [
            { id: 'ok', type: 'image', image: { media_id: mine.id } },
            { id: 'foreign', type: 'image', image: { media_id: foreignItem.id } },
            { id: 'junk', type: 'image', image: { media_id: 'not-an-id' } },
          ],
        },
      ),
    );
    const refused = await exportDesign(owner.token, images.id);
    expect(where(expectProblem(refused, 422, 'validation_failed'))).toEqual([
      'document.pages[0].background.image.media_id',
      'document.pages[0].layers[1].image.media_id',
      'document.pages[0].layers[2].image.media_id',
    ]);

    const layers = Array.from({ length: 201 }, (_, i) => ({ id: `l${i}`, type: 'shape', shape: { fill: '#000000' } }));
    const crowded = await createDesign(owner.token, workspaceId, simpleDocument({}, { layers }));
    expectProblem(await exportDesign(owner.token, crowded.id), 422, 'render_budget_exceeded');
    const library = await call('GET', `/media?workspace_id=${workspaceId}`, { token: owner.token });
    expect(library.body.items.map((item: any) => item.id)).toEqual([mine.id]);
  });

  it('a page slower than the render time budget is 422 render_budget_exceeded, and the service keeps answering', async () => {
    const { owner, workspaceId } = await createTenant();
    const heavy = Array.from({ length: 200 }, (_, i) => ({
      id: `blur${i}`,
      type: 'shape',
      transform: { x: 0, y: 0, width: 8192, height: 8192, rotation: i },
      shape: { kind: 'ellipse', fill: '#336699', stroke: '#ff00ff', stroke_width: 40 },
      effects: { drop_shadow: { color: '#000000', blur: 200, distance: 30, opacity: 1 } },
    }));
    const design = await createDesign(owner.token, workspaceId, { width_px: 8192, height_px: 8192, pages: [{ id: 'p', layers: heavy }] });
    const started = Date.now();
    expectProblem(await exportDesign(owner.token, design.id), 422, 'render_budget_exceeded');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await call('GET', `/image-editor/designs/${design.id}`, { token: owner.token })).status).toBe(200);
  }, 30_000);
});
