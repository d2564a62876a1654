import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/** X (see README.md beside this file): 280 weighted characters, 4 images or 1 video. */
export const X_RULES: NetworkRules = {
  text: { maxLength: 280, counting: 'weighted', threads: true, linkCard: false },
  attachments: { maxImages: 4, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'], maxBytes: 5 * MIB, maxLongSide: 4_096, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4', 'video/quicktime'], maxBytes: 512 * MIB, maxDurationMs: 140_000 },
  altTextMaxLength: 1_000,
  mediaRequired: false,
};
