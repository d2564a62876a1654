import { DOCUMENT_MAX_BYTES } from '../common/message-size.js';
import type { FieldError } from '../common/problem.js';

/**
 * A video project's document (docs/decisions.md): the client's own JSON object, whatever members it holds
 * at whatever depth, stored and answered exactly as sent. The service reads from it only the project
 * assets it names (referencedIds); it never refuses a member it does not know.
 */
export type VideoDocument = Record<string, unknown>;

/**
 * How deeply a document may nest objects and arrays (the document itself is level 1). Far beyond any
 * editor's needs, and well inside what JSON.stringify and PostgreSQL's jsonb parser recurse through
 * (both fail in the low thousands: a 500 instead of a 422).
 */
export const VIDEO_DOCUMENT_MAX_DEPTH = 512;

const NOT_AN_OBJECT = 'must be a JSON object';
const TOO_DEEP = `must not nest objects and arrays more than ${VIDEO_DOCUMENT_MAX_DEPTH} levels deep`;
const UNSTORABLE = 'must not contain NUL characters or unpaired surrogates';
/** U+0000 and lone UTF-16 surrogates: PostgreSQL's jsonb stores neither (the same rule as every other body). */
const UNSTORABLE_CHARACTER = /\u0000|\p{Cs}/u;

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The constant-time check: a document is a JSON object (an array, string, number or null is not). */
export function videoDocumentTypeError(document: unknown, location: string): FieldError | undefined {
  if (document === undefined) return { location, message: 'is required' };
  if (document === null) return { location, message: 'must not be null', value: null };
  if (!isJsonObject(document)) return { location, message: NOT_AN_OBJECT };
  return undefined;
}

/**
 * On the bus a written document travels as its JSON text under this member (instead of `document`):
 * the gateway, which parsed and checked it, serializes it once; the service stores that text as is
 * and answers without it, so no 5 MiB tree is parsed, walked or re-serialized in the service.
 */
export const DOCUMENT_JSON_MEMBER = 'document_json';

/**
 * A document's JSON text (as JSON.stringify makes it): an object's text, at most DOCUMENT_MAX_BYTES
 * (a body within the limit may still grow when re-encoded: `8e7` is `80000000`). PostgreSQL's `json`
 * type checks the rest of its syntax when it is stored.
 */
export function videoDocumentJsonError(json: unknown, location: string): FieldError | undefined {
  if (typeof json !== 'string' || !json.startsWith('{') || !json.endsWith('}')) return { location, message: NOT_AN_OBJECT };
  // A UTF-16 unit is at most 3 bytes of UTF-8: most documents need no count at all.
  if (json.length * 3 <= DOCUMENT_MAX_BYTES) return undefined;
  const bytes = new TextEncoder().encode(json).length;
  if (bytes > DOCUMENT_MAX_BYTES) return { location, message: `must be at most ${DOCUMENT_MAX_BYTES} bytes as JSON; it is ${bytes}` };
  return undefined;
}

/**
 * The whole check a document gets, in one pass (the gateway's, where it is parsed): a JSON object,
 * nested at most VIDEO_DOCUMENT_MAX_DEPTH levels, with no string or key PostgreSQL cannot store.
 * Members and their values are never judged. The first problem found, or undefined.
 */
export function videoDocumentError(document: unknown, location: string): FieldError | undefined {
  const typeError = videoDocumentTypeError(document, location);
  if (typeError) return typeError;
  const found = findProblem(document, 1);
  if (!found) return undefined;
  return { location: location + found.path.reverse().join(''), message: found.message };
}

interface Found {
  /** The segments from the problem up to the document (reversed once, at the end: no string is built on the way down). */
  path: string[];
  message: string;
}

function findProblem(value: unknown, depth: number): Found | undefined {
  if (typeof value === 'string') return UNSTORABLE_CHARACTER.test(value) ? { path: [], message: UNSTORABLE } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > VIDEO_DOCUMENT_MAX_DEPTH) return { path: [], message: TOO_DEEP };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findProblem(value[i], depth + 1);
      if (found) return (found.path.push(`[${i}]`), found);
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (UNSTORABLE_CHARACTER.test(key)) return { path: [`.${JSON.stringify(key).slice(1, -1)}`], message: UNSTORABLE };
    const found = findProblem((value as Record<string, unknown>)[key], depth + 1);
    if (found) return (found.path.push(`.${key}`), found);
  }
  return undefined;
}

/** A quoted UUID in JSON text; whether it is a whole string is decided by what precedes it (referencedIds). */
const QUOTED_UUID = /"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"/g;

/**
 * The ids a document names, lower-cased: every string value or key anywhere in its JSON text (as
 * JSON.stringify or PostgreSQL writes it) that is a UUID. The service keeps those that are assets of
 * the project (they are `required`); the rest are the client's business. Read from the text the
 * service writes anyway, so the tree is not walked.
 */
export function referencedIds(documentJson: string): Set<string> {
  const ids = new Set<string>();
  for (const match of documentJson.matchAll(QUOTED_UUID)) {
    // A whole string opens after `{`, `[`, `,` or `:` (and maybe spaces); a quote inside a string is escaped (`\"`).
    let at = match.index - 1;
    while (at >= 0 && /\s/.test(documentJson[at])) at--;
    if (at < 0 || '{[,:'.includes(documentJson[at])) ids.add(match[1].toLowerCase());
  }
  return ids;
}
