import { describe, expect, it } from '@jest/globals';
import { countText, renderFor, splitText, textLength, type RenderSource } from './render.js';

const source = (extra: Partial<RenderSource> = {}): RenderSource => ({
  contentProfile: 'short_text',
  title: 'T',
  sourceText: 'Hello world',
  sourceUrl: '',
  segments: [],
  ...extra,
});

describe('textLength', () => {
  it('counts graphemes, so a family emoji is one character', () => {
    expect(textLength('a👨‍👩‍👧b')).toBe(3);
  });
});

describe('splitText', () => {
  it('keeps a short text whole and drops an empty one', () => {
    expect(splitText('  hi  ', 10)).toEqual(['hi']);
    expect(splitText('   ', 10)).toEqual([]);
  });

  it('prefers paragraphs, then sentences, then words, each piece within the limit', () => {
    expect(splitText('aaaa bbbb\n\ncccc dddd', 10)).toEqual(['aaaa bbbb', 'cccc dddd']);
    expect(splitText('One two. Three four. Five.', 12)).toEqual(['One two.', 'Three four.', 'Five.']);
    expect(splitText('alpha beta gamma delta', 11)).toEqual(['alpha beta', 'gamma delta']);
    for (const piece of splitText('word '.repeat(200), 37)) expect(textLength(piece)).toBeLessThanOrEqual(37);
  });

  it('cuts a single word longer than a post', () => {
    expect(splitText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });
});

describe('renderFor', () => {
  it('gives one post when the text fits', () => {
    expect(renderFor('sandbox', source())).toEqual({
      ok: true,
      parts: [{ segmentId: null, title: 'T', text: 'Hello world', link: '', description: '', media: [] }],
    });
  });

  it('threads a text over the limit on networks that thread', () => {
    const result = renderFor('x', source({ sourceText: 'Sentence number one is here. '.repeat(20) }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.parts.length).toBeGreaterThan(1);
    for (const part of result.parts) expect(textLength(part.text)).toBeLessThanOrEqual(280);
  });

  it('refuses a text over the limit on networks that do not thread', () => {
    const result = renderFor('linkedin', source({ sourceText: 'x '.repeat(2_000) }));
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('at most 3000') });
  });

  it('makes each segment one post, or joins them where the network has no threads', () => {
    const segments = [
      { id: 's1', title: '', body: 'First', url: '' },
      { id: 's2', title: '', body: 'Second', url: 'https://example.com/2' },
    ];
    expect(renderFor('mastodon', source({ segments }))).toEqual({
      ok: true,
      parts: [
        { segmentId: 's1', title: '', text: 'First', link: '', description: '', media: [] },
        { segmentId: 's2', title: '', text: 'Second\n\nhttps://example.com/2', link: '', description: '', media: [] },
      ],
    });
    expect(renderFor('tiktok', source({ segments }))).toEqual({
      ok: true,
      parts: [{ segmentId: null, title: 'T', text: 'First\n\nSecond\n\nhttps://example.com/2', link: '', description: '', media: [] }],
    });
  });

  it('splits a thread publication at its paragraphs', () => {
    const result = renderFor('bluesky', source({ contentProfile: 'thread', sourceText: 'One\n\nTwo\n\n\nThree' }));
    expect(result.ok && result.parts.map((part) => part.text)).toEqual(['One', 'Two', 'Three']);
  });

  it('gives source_url as a link card where the network has one, appended elsewhere', () => {
    expect(renderFor('bluesky', source({ sourceUrl: 'https://example.com' }))).toEqual({
      ok: true,
      parts: [{ segmentId: null, title: 'T', text: 'Hello world', link: 'https://example.com', description: '', media: [] }],
    });
    expect(renderFor('sandbox', source({ sourceUrl: 'https://example.com' }))).toEqual({
      ok: true,
      parts: [{ segmentId: null, title: 'T', text: 'Hello world\n\nhttps://example.com', link: '', description: '', media: [] }],
    });
  });

  it('uses the strictest rules for a network without a table', () => {
    expect(renderFor('unknown', source({ sourceText: 'y'.repeat(281) })).ok).toBe(false);
  });

  it('counts as the network does: X weighs links 23 and CJK 2', () => {
    expect(countText('https://example.com/a/very/long/path/that/goes/on/and/on', 'weighted')).toBe(23);
    expect(countText('日本', 'weighted')).toBe(4);
    // An emoji sequence counts 2 whatever its code points (a family joined by ZWJ, a skin tone, a flag).
    expect(countText('👨‍👩‍👧 👍🏽 🇫🇷', 'weighted')).toBe(8);
    // Combining marks are composed first (NFC): é as e + U+0301 counts 1.
    expect(countText('e\u0301', 'weighted')).toBe(1);
    expect(countText('a👨‍👩‍👧b', 'utf16')).toBe(10);
    const result = renderFor('x', source({ sourceText: '日本語の文章です。'.repeat(20) }));
    expect(result.ok && result.parts.every((part) => countText(part.text, 'weighted') <= 280)).toBe(true);
  });

  it("media go with their parts: the publication's with the first, a segment's with its first piece, all of them in a joined post", () => {
    const media = (id: string) => ({ media_id: id, alt_text: '', role: 'attachment' as const, display_order: 9, settings: {} });
    const segments = [
      { id: 's1', title: '', body: 'First', url: '', media: [media('a')] },
      { id: 's2', title: '', body: 'Second. '.repeat(80), url: '', media: [media('b'), media('c')] },
    ];
    const threaded = renderFor('mastodon', source({ segments, media: [media('p')] }));
    expect(threaded.ok && threaded.parts.map((part) => part.media.map((m) => [m.media_id, m.display_order]))).toEqual([
      [
        ['p', 0],
        ['a', 1],
      ],
      [
        ['b', 0],
        ['c', 1],
      ],
      [],
    ]);
    const joined = renderFor('tiktok', source({ segments: segments.map((s) => ({ ...s, body: 'short' })), media: [media('p')] }));
    expect(joined.ok && joined.parts.map((part) => part.media.map((m) => m.media_id))).toEqual([['p', 'a', 'b', 'c']]);
  });
});

describe('renderFor: the title counts where the network gets it in the text', () => {
  it('splits a titled text that fits alone but not with its title; a link card carries the title instead', () => {
    const text = 'word '.repeat(60).trim(); // 299 graphemes
    const titled = renderFor('bluesky', source({ title: 'Release notes', sourceText: text }));
    expect(titled.ok).toBe(true);
    const parts = (titled as { parts: Array<{ title: string; text: string }> }).parts;
    expect(parts.length).toBeGreaterThan(1);
    expect(textLength(`${parts[0].title}\n\n${parts[0].text}`)).toBeLessThanOrEqual(300);
    expect(parts.map((part) => part.text).join(' ')).toBe(text);
    // On a card the title is not in the text: the text alone is measured.
    expect(renderFor('bluesky', source({ title: 'Release notes', sourceText: text, sourceUrl: 'https://example.com' }))).toMatchObject({
      ok: true,
      parts: [{ text }],
    });
    // A network without threads refuses it, counting the title.
    expect(renderFor('tiktok', source({ title: 'T', sourceText: 'a'.repeat(2_198) }))).toEqual({
      ok: false,
      reason: expect.stringContaining('2201 characters long with its title'),
    });
  });
});
