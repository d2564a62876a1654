import type { NetworkRules } from '../network-rules.js';

/**
 * The sandbox network's table (contract §4 "The sandbox's rules"): 500
 * characters a part, at most 4 images or 1 video a part (not both), images
 * at most 1,000,000 bytes and 2,000 px on the long side (larger ones are
 * resized at delivery), alt text ≤ 1,000 characters. The sandbox enforces
 * these itself when it receives a post, so tests see what a network refuses.
 */
export const SANDBOX_RULES: NetworkRules = {
  text: { maxLength: 500, counting: 'graphemes' },
  attachments: { maxImages: 4, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'], maxBytes: 1_000_000, maxLongSide: 2_000, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 4 * 1024 * 1024 * 1024, maxDurationMs: 0 },
  altTextMaxLength: 1_000,
  mediaRequired: false,
};
