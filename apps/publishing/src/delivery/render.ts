/**
 * Rendering (contract §4 "Delivery"): a publication shaped for one network.
 * Pure: the same publication and network always give the same parts. One part
 * is one post; more than one is a thread (sent as replies, in order).
 */

/** What a network takes: its text limit, whether it threads, whether it shows a link card. */
export interface NetworkShape {
  /** Most characters of one post, counted as user-perceived characters (graphemes). */
  maxLength: number;
  /** Whether a long text or several segments become a thread of replies. */
  threads: boolean;
  /** Whether a link is given beside the text (a card) rather than appended to it. */
  linkCard: boolean;
}

/** The one table of what each network takes; a network missing here gets DEFAULT_SHAPE. */
export const NETWORK_SHAPES: Readonly<Record<string, NetworkShape>> = {
  sandbox: { maxLength: 5_000, threads: true, linkCard: false },
  x: { maxLength: 280, threads: true, linkCard: false },
  mastodon: { maxLength: 500, threads: true, linkCard: false },
  bluesky: { maxLength: 300, threads: true, linkCard: true },
  threads: { maxLength: 500, threads: true, linkCard: false },
  linkedin: { maxLength: 3_000, threads: false, linkCard: true },
  facebook: { maxLength: 63_206, threads: false, linkCard: true },
  instagram: { maxLength: 2_200, threads: false, linkCard: false },
  tiktok: { maxLength: 2_200, threads: false, linkCard: false },
  youtube: { maxLength: 5_000, threads: false, linkCard: false },
  discord: { maxLength: 2_000, threads: false, linkCard: false },
  telegram: { maxLength: 4_096, threads: false, linkCard: false },
};
export const DEFAULT_SHAPE: NetworkShape = { maxLength: 2_000, threads: false, linkCard: false };

export const shapeOf = (platform: string): NetworkShape => NETWORK_SHAPES[platform] ?? DEFAULT_SHAPE;

/** What rendering reads of a publication. */
export interface RenderSource {
  contentProfile: string;
  title: string;
  sourceText: string;
  sourceUrl: string;
  segments: Array<{ id: string; title: string; body: string; url: string }>;
}

export interface RenderedPart {
  /** The publication segment it came from, or null. */
  segmentId: string | null;
  title: string;
  text: string;
  /** "" when none; for networks with link cards. */
  link: string;
}

export type RenderResult = { ok: true; parts: RenderedPart[] } | { ok: false; reason: string };

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Length as a person (and Bluesky) counts it: graphemes, so an emoji with modifiers is one. */
export function textLength(text: string): number {
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
}

/** The first `max` graphemes of a text. */
function takeGraphemes(text: string, max: number): string {
  let out = '';
  let count = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (count === max) break;
    out += segment;
    count += 1;
  }
  return out;
}

/**
 * Splits a text into pieces of at most `max` graphemes, preferring paragraph,
 * then sentence, then word boundaries; a word longer than `max` is cut.
 */
export function splitText(text: string, max: number): string[] {
  const trimmed = text.trim();
  if (textLength(trimmed) <= max) return trimmed === '' ? [] : [trimmed];
  const separators: RegExp[] = [/\n\s*\n/, /(?<=[.!?…])\s+/, /\s+/];
  for (const separator of separators) {
    const units = trimmed.split(separator).map((unit) => unit.trim()).filter((unit) => unit !== '');
    if (units.length < 2) continue;
    const glue = separator === separators[0] ? '\n\n' : ' ';
    const pieces: string[] = [];
    let current = '';
    for (const unit of units) {
      const candidate = current === '' ? unit : `${current}${glue}${unit}`;
      if (textLength(candidate) <= max) {
        current = candidate;
        continue;
      }
      if (current !== '') pieces.push(current);
      current = '';
      if (textLength(unit) <= max) current = unit;
      else pieces.push(...splitText(unit, max));
    }
    if (current !== '') pieces.push(current);
    return pieces;
  }
  // One word longer than a post: cut it.
  const pieces: string[] = [];
  let rest = trimmed;
  while (rest !== '') {
    const piece = takeGraphemes(rest, max);
    pieces.push(piece);
    rest = rest.slice(piece.length);
  }
  return pieces;
}

/** The posts the publication is made of before the network's limits: segments, a thread's paragraphs, or its whole text. */
function draftPosts(source: RenderSource, shape: NetworkShape): RenderedPart[] {
  if (source.segments.length > 0) {
    return source.segments.map((segment) => ({ segmentId: segment.id, title: segment.title, text: segment.body.trim(), link: segment.url }));
  }
  if (source.contentProfile === 'thread' && shape.threads) {
    return source.sourceText
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.trim())
      .filter((paragraph) => paragraph !== '')
      .map((text) => ({ segmentId: null, title: '', text, link: '' }));
  }
  return [{ segmentId: null, title: source.title, text: source.sourceText.trim(), link: '' }];
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
  if (posts.length === 0) posts = [{ segmentId: null, title: source.title, text: '', link: '' }];
  if (!shape.threads && posts.length > 1) {
    const text = posts.map((post) => (shape.linkCard || post.link === '' ? post.text : withLink(post.text, post.link))).filter((t) => t !== '').join('\n\n');
    posts = [{ segmentId: null, title: source.title, text, link: shape.linkCard ? (posts.find((post) => post.link !== '')?.link ?? '') : '' }];
  }
  if (source.sourceUrl !== '') {
    const [first, ...rest] = posts;
    posts = shape.linkCard ? [{ ...first, link: first.link || source.sourceUrl }, ...rest] : [{ ...first, text: withLink(first.text, source.sourceUrl) }, ...rest];
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
    const titleCost = titled ? textLength(post.title) + (post.text === '' ? 0 : 2) : 0;
    const length = textLength(post.text);
    if (length + titleCost <= shape.maxLength) {
      parts.push(post);
      continue;
    }
    // Split so that every piece fits beside the title (only the first piece carries it).
    const budget = shape.maxLength - (titled ? textLength(post.title) + 2 : 0);
    if (!shape.threads || budget < 1) {
      const what = titled ? `is ${length + titleCost} characters long with its title` : `is ${length} characters long`;
      return { ok: false, reason: `${what}; ${platform} takes at most ${shape.maxLength} in one post${shape.threads ? '' : ' and has no threads'}` };
    }
    splitText(post.text, budget).forEach((text, index) =>
      parts.push({ segmentId: post.segmentId, title: index === 0 ? post.title : '', text, link: index === 0 ? post.link : '' }),
    );
  }
  return { ok: true, parts };
}
