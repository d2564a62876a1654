import type { OutgoingPostPart } from './social-provider.js';

/** One part as text: title, text and link, each once (the renderer may have put the link in the text already). */
export function partText(part: OutgoingPostPart): string {
  const link = part.link && !part.text.includes(part.link) ? part.link : '';
  return [part.title, part.text, link].filter(Boolean).join('\n\n');
}

/**
 * partText, except that a title holding the link also counts as the link being there already. The two differ
 * only for such a title; they are kept apart so what a network has been sent (and Bluesky compares a stored
 * record with) stays the same: Discord, Telegram and Bluesky use this one.
 */
export function partTextLinkOnce(part: OutgoingPostPart): string {
  const body = [part.title, part.text].filter(Boolean).join('\n\n');
  return part.link && !body.includes(part.link) ? [body, part.link].filter(Boolean).join('\n\n') : body;
}
