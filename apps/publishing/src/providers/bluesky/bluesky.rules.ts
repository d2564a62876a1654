import type { NetworkRules } from '../network-rules.js';

/**
 * Bluesky's table, from the AT Protocol lexicons (app.bsky.feed.post,
 * app.bsky.embed.images, app.bsky.embed.video) and docs.bsky.app: 300
 * graphemes a post, 4 images (each blob at most 1,000,000 bytes; the app
 * scales them to 2,000 px) or one video (an MP4 blob up to 100,000,000 bytes,
 * at most 3 minutes), never both; alt text up to 1,000 graphemes (the video
 * lexicon's limit, and what the app allows for images too).
 */
export const BLUESKY_RULES: NetworkRules = {
  text: { maxLength: 300, counting: 'graphemes' },
  attachments: { maxImages: 4, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 1_000_000, maxLongSide: 2_000, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4'], maxBytes: 100_000_000, maxDurationMs: 180_000 },
  altTextMaxLength: 1_000,
  mediaRequired: false,
};
