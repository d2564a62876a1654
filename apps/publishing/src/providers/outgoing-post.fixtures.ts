import { Readable } from 'node:stream';
import type { OutgoingMedia, OutgoingPostPart } from './social-provider.js';

/** For the adapters' specs: one part of an outgoing post, with no media unless `extra` gives some. */
export const outgoingPart = (text: string, extra: Partial<OutgoingPostPart> = {}): OutgoingPostPart => ({
  text,
  title: '',
  link: '',
  media: [],
  ...extra,
});

/**
 * For the adapters' specs: media whose bytes are `bytes`, as delivery hands them over after reading storage.
 * `publicUrl` is where a network that fetches media by URL finds them (a fake's own address in specs).
 */
export const outgoingMedia = (
  bytes: Buffer,
  mimeType: string,
  altText = '',
  sides = { width: 0, height: 0 },
  publicUrl = 'https://media.invalid/not-served',
): OutgoingMedia => ({
  mediaId: crypto.randomUUID(),
  kind: mimeType.startsWith('video/') ? 'video' : 'image',
  mimeType,
  altText,
  size: bytes.length,
  ...sides,
  durationMs: 0,
  // A range (a resumed upload) reads only bytes start..end, inclusive, as storage does.
  open: async (range?: { start: number; end: number }) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
  publicUrl: async () => publicUrl,
});
