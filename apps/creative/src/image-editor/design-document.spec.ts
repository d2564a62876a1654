import { describe, expect, it } from '@jest/globals';
import { ImageEditorDocument } from '@social/contracts';
import { Problem, validateInput } from '@social/platform';
import { BUILT_IN_TEMPLATES } from '../templates/built-in-templates.js';
import { checkDocumentReferences, normalizeDocument } from './design-document.js';

const locationsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof Problem) return [...new Set((error.options.errors ?? []).map((e) => e.location))];
    throw error;
  }
  return [];
};

const doc = (pages: unknown[]) => validateInput(ImageEditorDocument, { width_px: 10, height_px: 10, pages }, 'body.document');

describe('image documents', () => {
  it('fills the document, page and layer members left out, keeping what was sent', () => {
    const stored = normalizeDocument(doc([{ id: 'p', layers: [{ id: 'l', type: 'text', transform: { x: 4 }, text: { text: 'hi' } }] }]));
    expect(stored).toEqual({
      schema_version: 1,
      title: '',
      preset_key: '',
      brand_kit_id: '',
      brand_kit_revision: 0,
      width_px: 10,
      height_px: 10,
      export_defaults: { format: 'png', matte_color: '', quality: 0.92 },
      pages: [
        {
          id: 'p',
          name: '',
          background_color: '',
          latest_export_media_id: '',
          preview_media_id: '',
          color_grade_version: 0,
          background: { type: 'transparent', color: '', opacity: 1 },
          guides: { horizontal: [], vertical: [] },
          layers: [
            {
              id: 'l',
              type: 'text',
              name: '',
              parent_id: '',
              locked: false,
              visible: true,
              opacity: 1,
              transform: { x: 4, y: 0, width: 0, height: 0, rotation: 0, flip_x: false, flip_y: false },
              text: { text: 'hi' },
            },
          ],
        },
      ],
    });
    // Normalizing a stored document changes nothing.
    expect(normalizeDocument(validateInput(ImageEditorDocument, stored, 'body.document'))).toEqual(stored);
  });

  it('refuses repeated page and layer ids and parents that are not groups of the page, at their locations', () => {
    expect(locationsOf(() => checkDocumentReferences(doc([{ id: 'a' }, { id: 'b' }, { id: 'a' }]), 'body.document'))).toEqual([
      'body.document.pages[2].id',
    ]);
    const layers = [
      { id: 'g', type: 'group' },
      { id: 'x', type: 'shape', parent_id: 'g' },
      { id: 'x', type: 'shape' },
      { id: 'y', type: 'shape', parent_id: 'x' },
      { id: 'g2', type: 'group', parent_id: 'g2' },
    ];
    expect(locationsOf(() => checkDocumentReferences(doc([{ id: 'p', layers }]), 'document'))).toEqual([
      'document.pages[0].layers[2].id',
      'document.pages[0].layers[3].parent_id',
      'document.pages[0].layers[4].parent_id',
    ]);
  });

  it('every built-in template is a valid, normalized document of its preset size', () => {
    expect(BUILT_IN_TEMPLATES.map((t) => t.id)).toEqual([
      'instagram-square',
      'instagram-portrait',
      'story-reel-slide',
      'linkedin-square',
      'linkedin-landscape',
      'x-landscape',
      'youtube-thumbnail',
    ]);
    for (const template of BUILT_IN_TEMPLATES) {
      const checked = validateInput(ImageEditorDocument, template.document, 'document');
      expect(() => checkDocumentReferences(checked, 'document')).not.toThrow();
      expect(normalizeDocument(checked)).toEqual(template.document);
      expect(template.document.preset_key).toBe(template.preset_key);
    }
  });
});
