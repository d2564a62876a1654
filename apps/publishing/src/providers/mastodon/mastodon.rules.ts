import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/**
 * Mastodon's defaults (see README.md beside this file). An instance may raise or lower its limits
 * (`/api/v2/instance` → configuration); we take the defaults of Mastodon 4.x and, for images, fit them
 * to the smaller matrix older instances accept, which every instance takes.
 */
export const MASTODON_RULES: NetworkRules = {
  text: { maxLength: 500, counting: 'graphemes', threads: true, linkCard: false },
  // A status takes up to 4 attachments; a video (or GIFV) must be its only one.
  attachments: { maxImages: 4, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'], maxBytes: 16 * MIB, maxLongSide: 0, maxPixels: 8_294_400 },
  // Video size is the instance's own setting (99 MiB by default, often raised): not refused in advance, the instance's
  // answer to the upload decides (a refusal rejects the rendition).
  video: { mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 0, maxDurationMs: 0 },
  altTextMaxLength: 1_500,
  mediaRequired: false,
};
