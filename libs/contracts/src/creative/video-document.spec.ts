import { DOCUMENT_MAX_BYTES } from '../common/message-size.js';
import {
  referencedIds,
  VIDEO_DOCUMENT_MAX_DEPTH,
  videoDocumentError,
  videoDocumentJsonError,
  videoDocumentTypeError,
} from './video-document.js';

const ASSET = '0192d6a8-1c5e-7f00-8000-000000000001';
const OTHER = '0192d6a8-1c5e-7f00-8000-000000000002';

/** `{"n": {"n": … {}}}` with `levels` objects in all. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { n: value };
  return value;
}

describe('videoDocumentError', () => {
  it('takes any JSON object, whatever its members, at any depth up to the limit', () => {
    const document = JSON.parse(
      '{"version": 1, "timeline": {"tracks": [{"kind": "sparkles", "clips": [{"asset": ' +
        `"${ASSET}", "fx": [[{"glow": null, "a.b": true}]]}]}]}, "": "", "__proto__": "a key"}`,
    );
    expect(videoDocumentError(document, 'body.document')).toBeUndefined();
    expect(videoDocumentError({}, 'body.document')).toBeUndefined();
    expect(videoDocumentError(nested(VIDEO_DOCUMENT_MAX_DEPTH), 'body.document')).toBeUndefined();
  });

  it('refuses what is not an object: arrays, strings, numbers, booleans, null, nothing', () => {
    for (const value of [[], [{}], 'doc', 0, 1.5, true]) {
      expect(videoDocumentError(value, 'body.document')).toEqual({ location: 'body.document', message: 'must be a JSON object' });
    }
    expect(videoDocumentError(null, 'body.document')).toEqual({ location: 'body.document', message: 'must not be null', value: null });
    expect(videoDocumentError(undefined, 'body.document')).toEqual({ location: 'body.document', message: 'is required' });
  });

  it('names the first member nested past the limit', () => {
    const error = videoDocumentError({ a: [nested(VIDEO_DOCUMENT_MAX_DEPTH)] }, 'body.document');
    expect(error?.message).toMatch(/more than 512 levels deep/);
    expect(error?.location).toBe(`body.document.a[0]${'.n'.repeat(VIDEO_DOCUMENT_MAX_DEPTH - 2)}`);
  });

  it('names a string or key PostgreSQL cannot store, at its depth', () => {
    expect(videoDocumentError({ a: { b: [1, 'x\u0000'] } }, 'body.document')).toEqual({
      location: 'body.document.a.b[1]',
      message: 'must not contain NUL characters or unpaired surrogates',
    });
    expect(videoDocumentError({ a: { 'k\ud800': 1 } }, 'body.document')?.location).toBe('body.document.a.k\\ud800');
    expect(videoDocumentError({ emoji: '🎬' }, 'body.document')).toBeUndefined();
  });

  it("the service's check of the document's JSON text: an object's text within the byte limit, counted in UTF-8", () => {
    expect(videoDocumentJsonError('{"a":[1,{"b":null}]}', 'body.document')).toBeUndefined();
    for (const text of ['[]', '"{}"', 'null', '', 42, undefined, '{"a":1']) {
      expect(videoDocumentJsonError(text, 'body.document')).toEqual({ location: 'body.document', message: 'must be a JSON object' });
    }
    // Two-byte characters: under the limit in UTF-16 units, over it in bytes.
    const wide = `{"t":"${'é'.repeat(DOCUMENT_MAX_BYTES / 2)}"}`;
    expect(wide.length).toBeLessThan(DOCUMENT_MAX_BYTES);
    expect(videoDocumentJsonError(wide, 'body.document')?.message).toBe(
      `must be at most ${DOCUMENT_MAX_BYTES} bytes as JSON; it is ${DOCUMENT_MAX_BYTES + 8}`,
    );
  });

  it('the constant-time check only looks at the type', () => {
    expect(videoDocumentTypeError({ deep: nested(VIDEO_DOCUMENT_MAX_DEPTH + 5) }, 'body.document')).toBeUndefined();
    expect(videoDocumentTypeError([], 'body.document')?.message).toBe('must be a JSON object');
  });
});

describe('referencedIds', () => {
  it('finds every UUID that is a whole string or key, at any depth, lower-cased, once each', () => {
    const document = { clips: [{ asset_id: ASSET.toUpperCase() }, { source: { ref: ASSET } }], assets: { [OTHER]: { note: 'x' } } };
    expect([...referencedIds(JSON.stringify(document))].sort()).toEqual([ASSET, OTHER]);
  });

  it('reads PostgreSQL jsonb text (spaces after separators) the same', () => {
    expect([...referencedIds(`{"a": ["${ASSET}", {"${OTHER}": 1}]}`)].sort()).toEqual([ASSET, OTHER]);
  });

  it('ignores UUIDs inside longer strings and behind escaped quotes', () => {
    const document = { text: `see ${ASSET}`, quoted: `"${OTHER}"`, url: `https://x/${ASSET}` };
    expect(referencedIds(JSON.stringify(document))).toEqual(new Set());
  });
});
