import type { NetworkRules } from '../network-rules.js';

/** Bluesky's limits from the app.bsky lexicons and its video documentation (see README.md beside this file). */
export const BLUESKY_RULES: NetworkRules = {
  text: { maxLength: 300, counting: 'graphemes', threads: true, linkCard: true },
  // app.bsky.embed.images holds at most 4 images; a post has one embed, so a video goes alone.
  attachments: { maxImages: 4, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 1_000_000, maxLongSide: 2_000, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4'], maxBytes: 100_000_000, maxDurationMs: 180_000 },
  // The video lexicon caps `alt` at 1,000 graphemes; the app takes 2,000 for images. One limit for both: the lower.
  altTextMaxLength: 1_000,
  mediaRequired: false,
};
