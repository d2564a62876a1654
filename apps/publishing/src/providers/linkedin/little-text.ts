/**
 * LinkedIn's "little" text format (README.md: Little Text Format): the Posts API reads `commentary` as little
 * text, where these characters start mentions, hashtags and templates. Each must be escaped with a backslash to
 * be shown as itself; LinkedIn does not refuse an unescaped one, it cuts or drops the text silently.
 */
export const LITTLE_RESERVED = ['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~'] as const;

const RESERVED = new Set<string>(LITTLE_RESERVED);

/** `text` as little text that LinkedIn shows exactly as `text`: every reserved character escaped. */
export function littleText(text: string): string {
  let out = '';
  for (const character of text) out += RESERVED.has(character) ? `\\${character}` : character;
  return out;
}

/** What LinkedIn shows of little text we sent (its escapes undone): how a post read back is compared to what was sent. */
export function unescapeLittleText(little: string): string {
  return little.replace(/\\(.)/gsu, '$1');
}
