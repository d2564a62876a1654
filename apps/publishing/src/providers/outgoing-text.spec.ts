import { describe, expect, it } from '@jest/globals';
import { partText, partTextLinkOnce } from './outgoing-text.js';
import type { OutgoingPostPart } from './social-provider.js';

const part = (text: string, extra: Partial<OutgoingPostPart> = {}): OutgoingPostPart => ({
  text,
  title: '',
  link: '',
  media: [],
  ...extra,
});

describe('partText and partTextLinkOnce', () => {
  it.each([partText, partTextLinkOnce])('puts title, text and link each once, in that order (%p)', (textOf) => {
    expect(textOf(part('We shipped.', { title: 'Launch', link: 'https://example.com/a' }))).toBe(
      'Launch\n\nWe shipped.\n\nhttps://example.com/a',
    );
    expect(textOf(part('See https://example.com/a now', { link: 'https://example.com/a' }))).toBe('See https://example.com/a now');
    expect(textOf(part('', { title: 'Launch', link: 'https://example.com/a' }))).toBe('Launch\n\nhttps://example.com/a');
    expect(textOf(part('Only text'))).toBe('Only text');
  });

  it('differ only for a title holding the link: partTextLinkOnce leaves the link out, partText adds it after the text', () => {
    const titled = part('We shipped.', { title: 'https://example.com/a', link: 'https://example.com/a' });
    expect(partText(titled)).toBe('https://example.com/a\n\nWe shipped.\n\nhttps://example.com/a');
    expect(partTextLinkOnce(titled)).toBe('https://example.com/a\n\nWe shipped.');
  });
});
