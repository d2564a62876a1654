import { describe, expect, it } from '@jest/globals';
import { IMAGE_DOCUMENT_MAX_BYTES, ImageEditorDocument } from '@social/contracts';
import { Problem, validateInput } from '@social/platform';
import { checkDocumentSize, documentToStore, normalizeDocument } from './design-document.js';

const doc = (pages: unknown[]) => validateInput(ImageEditorDocument, { width_px: 100, height_px: 100, pages }, 'body.document');

const refusalOf = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('the stored size of a document', () => {
  it('is measured once defaults are filled, not as sent', () => {
    const sent = doc([{ id: 'p', layers: [{ id: 'l', type: 'shape' }] }]);
    const stored = normalizeDocument(sent);
    const storedBytes = Buffer.byteLength(JSON.stringify(stored));
    expect(storedBytes).toBeGreaterThan(Buffer.byteLength(JSON.stringify(sent)));
    expect(() => checkDocumentSize(stored, 'body.document', storedBytes)).not.toThrow();
    expect(refusalOf(() => documentToStore(sent, 'body.document', storedBytes - 1))).toMatchObject({
      status: 422,
      options: {
        errors: [
          {
            location: 'body.document',
            message: `must be at most ${storedBytes - 1} bytes as JSON once stored (with defaults); it is ${storedBytes}`,
          },
        ],
      },
    });
  });

  it('defaults to the contract limit', () => {
    const huge = { ...normalizeDocument(doc([{ id: 'p' }])), title: 'x'.repeat(IMAGE_DOCUMENT_MAX_BYTES) };
    const refusal = refusalOf(() => checkDocumentSize(huge, 'document'));
    expect(refusal).toBeInstanceOf(Problem);
    expect(refusal).toMatchObject({ status: 422, options: { errors: [{ location: 'document' }] } });
  });
});

describe('documentToStore', () => {
  it('checks references before anything else', () => {
    const repeated = doc([{ id: 'a' }, { id: 'a' }]);
    expect(refusalOf(() => documentToStore(repeated, 'body.document', 1))).toMatchObject({
      options: { errors: [{ location: 'body.document.pages[1].id' }] },
    });
  });

  it('answers the normalized document', () => {
    const sent = doc([{ id: 'p' }]);
    expect(documentToStore(sent, 'body.document')).toEqual(normalizeDocument(sent));
  });
});
