import type { AttachedMedia } from '@social/contracts';
import { rulesFor, type TextCounting } from '../providers/network-rules.js';

/**
 * Rendering (docs/decisions.md "Delivery"): a publication shaped for one network.
 * Pure: the same publication and network always give the same parts. One part
 * is one post; more than one is a thread (sent as replies, in order).
 */

/** What rendering needs of a network: its text limit and how it counts, whether it threads, whether it shows a link card. */
export interface NetworkShape {
  maxLength: number;
  counting: TextCounting;
  threads: boolean;
  linkCard: boolean;
}

/** The network's text rules, from its one table (providers/<network>/<network>.rules.ts). */
export const shapeOf = (platform: string): NetworkShape => rulesFor(platform).text;

/** What rendering reads of a publication. */
export interface RenderSource {
  contentProfile: string;
  title: string;
  sourceText: string;
  sourceUrl: string;
  segments: Array<{ id: string; title: string; body: string; url: string; description?: string; media?: AttachedMedia[] }>;
  /** Publication-level media: they go with the first part. */
  media?: AttachedMedia[];
}

export interface RenderedPart {
  /** The publication segment it came from, or null. */
  segmentId: string | null;
  title: string;
  text: string;
  /** "" when none; for networks with link cards. */
  link: string;
  /** The segment's description ("" for parts not made from a segment). */
  description: string;
  /**
   * The media this part carries (its effective media, docs/decisions.md): the publication's on the first part, a
   * segment's on its first part.
   */
  media: AttachedMedia[];
}

export type RenderResult = { ok: true; parts: RenderedPart[] } | { ok: false; reason: string };

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Length as a person (and Bluesky) counts it: graphemes, so an emoji with modifiers is one. */
export function textLength(text: string): number {
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
}

const URL_PATTERN = /https?:\/\/[^\s]+/g;
/** X counts a link as 23 characters whatever its length. */
const X_URL_WEIGHT = 23;

/** An emoji, however many code points make it (modifiers, joiners, flags): X counts the whole sequence as 2. */
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const lightCodePoint = (code: number) =>
  code <= 4351 || (code >= 8192 && code <= 8205) || (code >= 8208 && code <= 8223) || (code >= 8242 && code <= 8247);

/**
 * X's weighted length (its counting-characters rules, as twitter-text applies them): the text in NFC; a URL 23;
 * an emoji sequence 2; otherwise Latin-1, general punctuation and a few more count 1 per code point, every other
 * code point (CJK…) 2.
 */
function weightedLength(text: string): number {
  let count = 0;
  const withoutUrls = text.normalize('NFC').replace(URL_PATTERN, () => {
    count += X_URL_WEIGHT;
    return '';
  });
  for (const { segment } of segmenter.segment(withoutUrls)) {
    if (EMOJI.test(segment)) {
      count += 2;
      continue;
    }
    for (const char of segment) count += lightCodePoint(char.codePointAt(0) ?? 0) ? 1 : 2;
  }
  return count;
}

/** A text's length as a network counts it. */
export function countText(text: string, counting: TextCounting = 'graphemes'): number {
  if (counting === 'utf16') return text.length;
  if (counting === 'weighted') return weightedLength(text);
  return textLength(text);
}

/** The longest head of a text (whole graphemes) that counts at most `max`. */
function takeGraphemes(text: string, max: number, counting: TextCounting): string {
  let out = '';
  for (const { segment } of segmenter.segment(text)) {
    if (countText(out + segment, counting) > max) break;
    out += segment;
  }
  // A single grapheme heavier than the limit still moves the cut forward.
  return out === '' ? ([...segmenter.segment(text)][0]?.segment ?? '') : out;
}

/**
 * Splits a text into pieces of at most `max` graphemes, preferring paragraph,
 * then sentence, then word boundaries; a word longer than `max` is cut.
 */
export function splitText(text: string, max: number, counting: TextCounting = 'graphemes'): string[] {
  const trimmed = text.trim();
  if (countText(trimmed, counting) <= max) return trimmed === '' ? [] : [trimmed];
  const separators: RegExp[] = [/\n\s*\n/, /(?<=[.!?…])\s+/, /\s+/];
  for (const separator of separators) {
    const units = trimmed
      .split(separator)
      .map((unit) => unit.trim())
      .filter((unit) => unit !== '');
    if (units.length < 2) continue;
    const glue = separator === separators[0] ? '\n\n' : ' ';
    const pieces: string[] = [];
    let current = '';
    for (const unit of units) {
      const candidate = current === '' ? unit : `${current}${glue}${unit}`;
      if (countText(candidate, counting) <= max) {
        current = candidate;
        continue;
      }
      if (current !== '') pieces.push(current);
      current = '';
      if (countText(unit, counting) <= max) current = unit;
      else pieces.push(...splitText(unit, max, counting));
    }
    if (current !== '') pieces.push(current);
    return pieces;
  }
  // One word longer than a post: cut it.
  const pieces: string[] = [];
  let rest = trimmed;
  while (rest !== '') {
    const piece = takeGraphemes(rest, max, counting);
    pieces.push(piece);
    rest = rest.slice(piece.length);
  }
  return pieces;
}

/** The posts the publication is made of before the network's limits: segments, a thread's paragraphs, or its whole text. */
function draftPosts(source: RenderSource, shape: NetworkShape): RenderedPart[] {
  if (source.segments.length > 0) {
    return source.segments.map((segment) => ({
      segmentId: segment.id,
      title: segment.title,
      text: segment.body.trim(),
      link: segment.url,
      description: segment.description ?? '',
      media: segment.media ?? [],
    }));
  }
  if (source.contentProfile === 'thread' && shape.threads) {
    return source.sourceText
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.trim())
      .filter((paragraph) => paragraph !== '')
      .map((text) => ({ segmentId: null, title: '', text, link: '', description: '', media: [] }));
  }
  return [{ segmentId: null, title: source.title, text: source.sourceText.trim(), link: '', description: '', media: [] }];
}

/** Appends a link to a text, on its own line. */
const withLink = (text: string, link: string): string => (text === '' ? link : `${text}\n\n${link}`);

/**
 * The posts for one network: segments become posts (a network that does not
 * thread gets them joined into one), the publication's `source_url` is a link
 * card where the network shows one and appended to the first post elsewhere,
 * and a post over the network's limit is split at paragraph, sentence or word
 * boundaries where the network threads, refused where it does not.
 */
export function renderFor(platform: string, source: RenderSource): RenderResult {
  const shape = shapeOf(platform);
  let posts = draftPosts(source, shape);
  if (posts.length === 0) posts = [{ segmentId: null, title: source.title, text: '', link: '', description: '', media: [] }];
  if (!shape.threads && posts.length > 1) {
    const text = posts
      .map((post) => (shape.linkCard || post.link === '' ? post.text : withLink(post.text, post.link)))
      .filter((t) => t !== '')
      .join('\n\n');
    posts = [
      {
        segmentId: null,
        title: source.title,
        text,
        link: shape.linkCard ? (posts.find((post) => post.link !== '')?.link ?? '') : '',
        description: '',
        // One post: every segment's media, in order.
        media: posts.flatMap((post) => post.media),
      },
    ];
  }
  if (source.media && source.media.length > 0) posts = [{ ...posts[0], media: [...source.media, ...posts[0].media] }, ...posts.slice(1)];
  if (source.sourceUrl !== '') {
    const [first, ...rest] = posts;
    posts = shape.linkCard
      ? [{ ...first, link: first.link || source.sourceUrl }, ...rest]
      : [{ ...first, text: withLink(first.text, source.sourceUrl) }, ...rest];
  }
  if (!shape.linkCard) {
    // Networks without cards read a segment's URL in its text.
    posts = posts.map((post) => (post.link !== '' ? { ...post, text: withLink(post.text, post.link), link: '' } : post));
  }
  const parts: RenderedPart[] = [];
  for (const post of posts) {
    // The adapters send a post's title at the head of its text ("title, blank line, text"; Mastodon always,
    // Bluesky unless a link card shows it), and the network counts it. Measuring the text alone let a titled
    // post of up to the limit through, which the network then refused (Mastodon 422, Bluesky 400).
    const titled = post.title !== '' && !(shape.linkCard && post.link !== '');
    const titleCost = titled ? countText(post.title, shape.counting) + (post.text === '' ? 0 : 2) : 0;
    const length = countText(post.text, shape.counting);
    if (length + titleCost <= shape.maxLength) {
      parts.push(post);
      continue;
    }
    // Split so that every piece fits beside the title (only the first piece carries it).
    const budget = shape.maxLength - (titled ? countText(post.title, shape.counting) + 2 : 0);
    if (!shape.threads || budget < 1) {
      const what = titled ? `is ${length + titleCost} characters long with its title` : `is ${length} characters long`;
      return {
        ok: false,
        reason: `${what}; ${platform} takes at most ${shape.maxLength} in one post${shape.threads ? '' : ' and has no threads'}`,
      };
    }
    splitText(post.text, budget, shape.counting).forEach((text, index) =>
      parts.push({
        segmentId: post.segmentId,
        title: index === 0 ? post.title : '',
        text,
        link: index === 0 ? post.link : '',
        description: index === 0 ? post.description : '',
        // A split post's media go with its first piece.
        media: index === 0 ? post.media : [],
      }),
    );
  }
  // Each part's media in the order it shows them.
  return {
    ok: true,
    parts: parts.map((part) => ({ ...part, media: part.media.map((media, order) => ({ ...media, display_order: order })) })),
  };
}
