import type { ImageEditorDocument, ImageEditorTemplate } from '@social/contracts';

/** When the built-in set was written (its templates' created_at and updated_at). */
const BUILT_IN_AT = '2026-11-01T00:00:00.000Z';

/** Contract §5: the built-in size presets, in this order; a template's id is its preset key. */
const PRESETS: Array<{ key: string; name: string; category: string; width: number; height: number }> = [
  { key: 'instagram-square', name: 'Instagram square', category: 'instagram', width: 1080, height: 1080 },
  { key: 'instagram-portrait', name: 'Instagram portrait', category: 'instagram', width: 1080, height: 1350 },
  { key: 'story-reel-slide', name: 'Story / reel slide', category: 'stories', width: 1080, height: 1920 },
  { key: 'linkedin-square', name: 'LinkedIn square', category: 'linkedin', width: 1200, height: 1200 },
  { key: 'linkedin-landscape', name: 'LinkedIn landscape', category: 'linkedin', width: 1200, height: 627 },
  { key: 'x-landscape', name: 'X landscape', category: 'x', width: 1600, height: 900 },
  { key: 'youtube-thumbnail', name: 'YouTube thumbnail', category: 'youtube', width: 1280, height: 720 },
];

/** One white page with a centred title: a valid, renderable ImageEditorDocument of the preset's size. */
function presetDocument(key: string, name: string, width: number, height: number): ImageEditorDocument {
  const fontSize = Math.round(Math.min(width, height) / 12);
  return {
    schema_version: 1,
    title: name,
    preset_key: key,
    brand_kit_id: '',
    brand_kit_revision: 0,
    width_px: width,
    height_px: height,
    export_defaults: { format: 'png', matte_color: '', quality: 0.92 },
    pages: [
      {
        id: 'page-1',
        name: 'Page 1',
        background_color: '#ffffff',
        latest_export_media_id: '',
        preview_media_id: '',
        color_grade_version: 0,
        background: { type: 'color', color: '#ffffff', opacity: 1 },
        guides: { horizontal: [], vertical: [] },
        layers: [
          {
            id: 'title',
            type: 'text',
            name: 'Title',
            parent_id: '',
            locked: false,
            visible: true,
            opacity: 1,
            transform: {
              x: Math.round(width * 0.1),
              y: Math.round(height / 2 - fontSize),
              width: Math.round(width * 0.8),
              height: fontSize * 2,
              rotation: 0,
              flip_x: false,
              flip_y: false,
            },
            text: { text: 'Your headline', color: '#111111', font_size: fontSize, font_weight: 700, align: 'center', line_height: 1.2 },
          },
        ],
      },
    ],
  };
}

export const BUILT_IN_TEMPLATES: readonly ImageEditorTemplate[] = PRESETS.map((preset) => ({
  id: preset.key,
  built_in: true,
  workspace_id: '',
  name: preset.name,
  category: preset.category,
  preset_key: preset.key,
  preview_media_id: '',
  document: presetDocument(preset.key, preset.name, preset.width, preset.height),
  created_at: BUILT_IN_AT,
  updated_at: BUILT_IN_AT,
}));
