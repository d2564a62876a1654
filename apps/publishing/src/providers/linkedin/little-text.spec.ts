import { describe, expect, it } from '@jest/globals';
import { LITTLE_RESERVED, littleText, unescapeLittleText } from './little-text.js';

describe('LinkedIn little text', () => {
  it('escapes each reserved character of the little text format with a backslash', () => {
    expect(LITTLE_RESERVED.join('')).toBe('\\|{}@[]()<>#*_~');
    for (const character of LITTLE_RESERVED) expect(littleText(`a${character}b`)).toBe(`a\\${character}b`);
  });

  it('leaves everything else as it is (letters, punctuation, emoji, links, line breaks)', () => {
    const plain = 'Ça va? Yes! 50% off: https://example.com/a?b=c&d=e 🎉\nNext line.';
    expect(littleText(plain)).toBe(plain);
  });

  it('escapes a backslash once, so an escape already in the text is shown, not taken', () => {
    expect(littleText('C:\\path \\#not')).toBe('C:\\\\path \\\\\\#not');
  });

  it('reads back exactly what was escaped, whatever the text', () => {
    const text = 'Launch (beta) [v2] {x|y} @ada #news *bold* _it_ ~s~ <b> \\ end 👋';
    expect(littleText(text)).toBe('Launch \\(beta\\) \\[v2\\] \\{x\\|y\\} \\@ada \\#news \\*bold\\* \\_it\\_ \\~s\\~ \\<b\\> \\\\ end 👋');
    expect(unescapeLittleText(littleText(text))).toBe(text);
  });
});
