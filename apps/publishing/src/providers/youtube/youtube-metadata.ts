import { rejected } from '../delivery-failure.js';
import type { OutgoingMedia, OutgoingPostPart } from '../social-provider.js';

/**
 * The video resource sent with `videos.insert` (README.md beside this file: the `videos` resource's snippet and
 * status), built from one part and the rendition's settings, and the same each time for the same post (a lost
 * answer is found again by its title and description).
 */

/** snippet.title: at most 100 characters, none of them `<` or `>`. */
export const TITLE_MAX_CHARACTERS = 100;
/** snippet.description: at most 5,000 bytes (UTF-8), none of them `<` or `>`. */
export const DESCRIPTION_MAX_BYTES = 5_000;
/** snippet.tags: 500 characters in all, commas between tags counted, a tag with a space counted with its quotes. */
export const TAGS_MAX_CHARACTERS = 500;
/** YouTube makes a Short of a vertical or square video of up to three minutes (no flag is sent). */
export const SHORTS_MAX_DURATION_MS = 180_000;

export const PRIVACY_STATUSES = ['public', 'unlisted', 'private'] as const;
export type PrivacyStatus = (typeof PRIVACY_STATUSES)[number];
/** A rendition that names no privacy goes out public: publishing means going live, as on every other network. */
export const DEFAULT_PRIVACY: PrivacyStatus = 'public';

export interface VideoResource {
  snippet: { title: string; description: string; tags?: string[]; categoryId?: string };
  status: { privacyStatus: PrivacyStatus; selfDeclaredMadeForKids: boolean };
}

const characters = (value: string) => Array.from(value);

/** `<` and `>` are refused in titles and descriptions: the single angle quotation marks keep what the text meant. */
const withoutAngleBrackets = (value: string) => value.replace(/</g, '\u2039').replace(/>/g, '\u203a');

/** At most `max` characters (whole code points), an ellipsis marking a cut. */
function cutCharacters(value: string, max: number): string {
  const all = characters(value);
  return all.length <= max
    ? value
    : `${all
        .slice(0, max - 1)
        .join('')
        .trimEnd()}\u2026`;
}

/** At most `max` UTF-8 bytes (whole code points), an ellipsis marking a cut. */
function cutBytes(value: string, max: number): string {
  if (Buffer.byteLength(value, 'utf8') <= max) return value;
  const ellipsis = '\u2026';
  let kept = '';
  let bytes = Buffer.byteLength(ellipsis, 'utf8');
  for (const character of value) {
    const size = Buffer.byteLength(character, 'utf8');
    if (bytes + size > max) break;
    kept += character;
    bytes += size;
  }
  return `${kept.trimEnd()}${ellipsis}`;
}

/** The part's text and its link (once), as the description holds it. */
function descriptionOf(part: OutgoingPostPart): string {
  const link = part.link && !part.text.includes(part.link) ? part.link : '';
  return cutBytes(withoutAngleBrackets([part.text, link].filter(Boolean).join('\n\n')), DESCRIPTION_MAX_BYTES);
}

/** The part's title, else the first line of its text (contract §4), bounded as YouTube takes it. */
function titleOf(part: OutgoingPostPart): string {
  const source = part.title.trim() || (part.text.split('\n').find((line) => line.trim() !== '') ?? '').trim();
  return cutCharacters(withoutAngleBrackets(source).replace(/\s+/g, ' '), TITLE_MAX_CHARACTERS);
}

/** How one tag counts toward the 500: its characters, plus the quotes YouTube puts around a tag with a space. */
const tagCost = (tag: string) => characters(tag).length + (/\s/.test(tag) ? 2 : 0);

/** The settings' tags (a string array), trimmed, without duplicates or `<>`, kept in order while they fit. */
function tagsOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((tag) => typeof tag !== 'string')) {
    throw rejected('invalid_settings', 'The YouTube setting "tags" must be a list of texts.');
  }
  const tags: string[] = [];
  let used = 0;
  for (const raw of value as string[]) {
    const tag = raw.replace(/[<>,]/g, ' ').replace(/\s+/g, ' ').trim();
    if (!tag || tags.some((kept) => kept.toLowerCase() === tag.toLowerCase())) continue;
    const cost = tagCost(tag) + (tags.length > 0 ? 1 : 0);
    if (used + cost > TAGS_MAX_CHARACTERS) break;
    tags.push(tag);
    used += cost;
  }
  return tags;
}

function privacyOf(value: unknown): PrivacyStatus {
  if (value === undefined || value === null || value === '') return DEFAULT_PRIVACY;
  if (typeof value !== 'string' || !(PRIVACY_STATUSES as readonly string[]).includes(value)) {
    throw rejected('invalid_settings', `The YouTube setting "privacy_status" must be one of ${PRIVACY_STATUSES.join(', ')}.`);
  }
  return value as PrivacyStatus;
}

function madeForKidsOf(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw rejected('invalid_settings', 'The YouTube setting "made_for_kids" must be true or false.');
  return value;
}

function categoryOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const category = typeof value === 'number' ? String(value) : value;
  if (typeof category !== 'string' || !/^\d{1,4}$/.test(category)) {
    throw rejected('invalid_settings', 'The YouTube setting "category_id" must be a video category id (digits).');
  }
  return category;
}

/**
 * The resource for `part` under `settings` (`privacy_status`, `made_for_kids`, `tags`, `category_id`). Throws a
 * rejected DeliveryError (nothing sent) for settings YouTube would refuse, or when there is no title to give.
 */
export function videoResource(part: OutgoingPostPart, settings: Record<string, unknown> = {}): VideoResource {
  const title = titleOf(part);
  if (!title) throw rejected('missing_title', 'A YouTube video needs a title: give the publication a title or a text.');
  const tags = tagsOf(settings.tags);
  const categoryId = categoryOf(settings.category_id);
  return {
    snippet: { title, description: descriptionOf(part), ...(tags.length ? { tags } : {}), ...(categoryId ? { categoryId } : {}) },
    status: { privacyStatus: privacyOf(settings.privacy_status), selfDeclaredMadeForKids: madeForKidsOf(settings.made_for_kids) },
  };
}

/** Whether YouTube will show the video as a Short: vertical or square, and known to last at most three minutes. */
export function isShort(media: Pick<OutgoingMedia, 'width' | 'height' | 'durationMs'>): boolean {
  return media.width > 0 && media.height >= media.width && media.durationMs > 0 && media.durationMs <= SHORTS_MAX_DURATION_MS;
}

/** Where the video is watched: `/shorts/<id>` for a Short (its own player), else `watch?v=<id>`. */
export function videoUrl(id: string, short: boolean): string {
  return short ? `https://www.youtube.com/shorts/${encodeURIComponent(id)}` : `https://www.youtube.com/watch?v=${encodeURIComponent(id)}`;
}
