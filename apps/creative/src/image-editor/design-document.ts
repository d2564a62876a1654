import { IMAGE_DOCUMENT_MAX_BYTES, IMAGE_DOCUMENT_SCHEMA_VERSION, type FieldError, type ImageEditorDocument } from '@social/contracts';
import { problems } from '@social/platform';

type Json = Record<string, unknown>;

const TRANSFORM_DEFAULTS = { x: 0, y: 0, width: 0, height: 0, rotation: 0, flip_x: false, flip_y: false };

/**
 * A validated document as it is stored and answered: the document's, pages' and
 * layers' own members are always present (defaults fill what was left out);
 * nested feature objects (effects, text, image…) are kept as sent.
 */
export function normalizeDocument(input: ImageEditorDocument): ImageEditorDocument {
  const doc = JSON.parse(JSON.stringify(input)) as Json;
  const pages = (doc.pages as Json[]).map((page) => ({
    id: page.id,
    name: page.name ?? '',
    background_color: page.background_color ?? '',
    latest_export_media_id: page.latest_export_media_id ?? '',
    preview_media_id: page.preview_media_id ?? '',
    color_grade_version: page.color_grade_version ?? 0,
    background: { type: 'transparent', color: '', opacity: 1, ...((page.background as Json | undefined) ?? {}) },
    ...(page.color_grade ? { color_grade: page.color_grade } : {}),
    guides: { horizontal: [], vertical: [], ...((page.guides as Json | undefined) ?? {}) },
    layers: ((page.layers as Json[] | undefined) ?? []).map((layer) => ({
      ...layer,
      id: layer.id,
      type: layer.type,
      name: layer.name ?? '',
      parent_id: layer.parent_id ?? '',
      locked: layer.locked ?? false,
      visible: layer.visible ?? true,
      opacity: layer.opacity ?? 1,
      transform: { ...TRANSFORM_DEFAULTS, ...((layer.transform as Json | undefined) ?? {}) },
    })),
  }));
  return {
    schema_version: IMAGE_DOCUMENT_SCHEMA_VERSION,
    title: (doc.title as string | undefined) ?? '',
    preset_key: (doc.preset_key as string | undefined) ?? '',
    brand_kit_id: (doc.brand_kit_id as string | undefined) ?? '',
    brand_kit_revision: (doc.brand_kit_revision as number | undefined) ?? 0,
    width_px: doc.width_px as number,
    height_px: doc.height_px as number,
    export_defaults: { format: 'png', matte_color: '', quality: 0.92, ...((doc.export_defaults as Json | undefined) ?? {}) },
    pages,
  } as unknown as ImageEditorDocument;
}

/**
 * The rules between members that class-validator cannot see: page ids unique in
 * the document, layer ids unique in their page, a `parent_id` naming a `group`
 * layer of the same page. Each broken one is 422 at its location (`at` is where
 * the document sits, e.g. `body.document`).
 */
export function checkDocumentReferences(doc: ImageEditorDocument, at: string): void {
  const errors: FieldError[] = [];
  const pageIds = new Set<string>();
  doc.pages.forEach((page, p) => {
    if (pageIds.has(page.id))
      errors.push({ location: `${at}.pages[${p}].id`, message: 'is the id of an earlier page of the document', value: page.id });
    pageIds.add(page.id);
    const layers = page.layers ?? [];
    const layerIds = new Set<string>();
    const groups = new Set(layers.filter((layer) => layer.type === 'group').map((layer) => layer.id));
    layers.forEach((layer, l) => {
      if (layerIds.has(layer.id))
        errors.push({
          location: `${at}.pages[${p}].layers[${l}].id`,
          message: 'is the id of an earlier layer of the page',
          value: layer.id,
        });
      layerIds.add(layer.id);
      if (layer.parent_id && (!groups.has(layer.parent_id) || layer.parent_id === layer.id)) {
        errors.push({
          location: `${at}.pages[${p}].layers[${l}].parent_id`,
          message: 'must be "" or the id of another group layer of the page',
          value: layer.parent_id,
        });
      }
    });
  });
  if (errors.length > 0) throw problems.validation(errors, errors.map((e) => `${e.location} ${e.message}`).join('; ') + '.');
}

/** A normalized document's JSON must stay within `maxBytes` (422 at `at`). */
export function checkDocumentSize(document: ImageEditorDocument, at: string, maxBytes = IMAGE_DOCUMENT_MAX_BYTES): void {
  const bytes = Buffer.byteLength(JSON.stringify(document));
  if (bytes > maxBytes) throw problems.invalid(at, `must be at most ${maxBytes} bytes as JSON once stored (with defaults); it is ${bytes}`);
}

/** What a request sends as a document, checked (references, then size once normalized) and normalized for storing. */
export function documentToStore(document: ImageEditorDocument, at: string, maxBytes = IMAGE_DOCUMENT_MAX_BYTES): ImageEditorDocument {
  checkDocumentReferences(document, at);
  const stored = normalizeDocument(document);
  checkDocumentSize(stored, at, maxBytes);
  return stored;
}
