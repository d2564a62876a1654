import { ANGLES_MAX_COUNT, ANGLES_MIN_COUNT, AngleBuildDirection, AngleMedia, PublicationAngle } from '@social/contracts';

/** An angle as the model proposed it; the platform assigns the id. */
export type AngleDraft = Omit<PublicationAngle, 'id'>;

export type ParsedAngles = { angles: AngleDraft[] } | { error: string };

/** Longer than any sensible member: the model is rambling or looping. */
const MAX_MEMBER_LENGTH = 5_000;

const REQUIRED = ['label', 'hook', 'thesis'] as const;
const OPTIONAL = ['approach', 'objective', 'desired_reaction', 'evidence'] as const;
const BUILD_DIRECTION: ReadonlyArray<keyof AngleBuildDirection> = ['angle', 'audience', 'media_preference', 'outcome', 'tone_adjustment'];
const MEDIA: ReadonlyArray<keyof AngleMedia> = ['brief', 'role', 'source_ref', 'treatment'];

class Unusable extends Error {}

/**
 * Checks the model's content against the answer E16 promises. Strict on the
 * core: `{"angles": [...]}` with 3 to 5 objects, each with a non-blank
 * `label`, `hook` and `thesis`. Lenient where a model is harmlessly sloppy: the
 * other members may be missing or null (they become ""), unknown members and
 * a model's own `id` are dropped, strings are trimmed, and one Markdown code
 * fence around the JSON is removed. A member of the wrong type is unusable.
 */
export function parseAngles(content: string): ParsedAngles {
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutCodeFence(content));
  } catch {
    return { error: 'not JSON' };
  }
  const angles = isObject(parsed) ? parsed.angles : undefined;
  if (!Array.isArray(angles)) return { error: 'no "angles" array' };
  if (angles.length < ANGLES_MIN_COUNT || angles.length > ANGLES_MAX_COUNT) return { error: `${angles.length} angles` };
  try {
    return { angles: angles.map((angle, i) => toDraft(angle, `angles[${i}]`)) };
  } catch (error) {
    if (error instanceof Unusable) return { error: error.message };
    throw error;
  }
}

function toDraft(angle: unknown, at: string): AngleDraft {
  if (!isObject(angle)) throw new Unusable(`${at} is not an object`);
  const draft = {} as Record<string, unknown>;
  for (const key of REQUIRED) {
    draft[key] = text(angle[key], `${at}.${key}`);
    if (draft[key] === '') throw new Unusable(`${at}.${key} is missing or blank`);
  }
  for (const key of OPTIONAL) draft[key] = text(angle[key], `${at}.${key}`);
  draft.build_direction = group(angle.build_direction, BUILD_DIRECTION, `${at}.build_direction`);
  draft.media = group(angle.media, MEDIA, `${at}.media`);
  return draft as AngleDraft;
}

function group<K extends string>(value: unknown, keys: ReadonlyArray<K>, at: string): Record<K, string> {
  if (value !== undefined && value !== null && !isObject(value)) throw new Unusable(`${at} is not an object`);
  const source = (value ?? {}) as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, text(source[key], `${at}.${key}`)])) as Record<K, string>;
}

function text(value: unknown, at: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new Unusable(`${at} is not a string`);
  // U+0000 could not be stored anywhere downstream (a draft built from this angle is saved in PostgreSQL).
  const trimmed = value.replace(/\u0000/g, '').trim();
  if (trimmed.length > MAX_MEMBER_LENGTH) throw new Unusable(`${at} is longer than ${MAX_MEMBER_LENGTH} characters`);
  return trimmed;
}

function withoutCodeFence(content: string): string {
  const fenced = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n\s*```\s*$/.exec(content);
  return fenced ? fenced[1] : content;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
