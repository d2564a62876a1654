import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/** LinkedIn posts (see README.md beside this file): 3,000 characters, a multi-image post or one video. */
export const LINKEDIN_RULES: NetworkRules = {
  text: { maxLength: 3_000, counting: 'utf16', threads: false, linkCard: true },
  attachments: { maxImages: 9, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/gif'], maxBytes: 8 * MIB, maxLongSide: 0, maxPixels: 36_152_320 },
  video: { mimeTypes: ['video/mp4'], maxBytes: 200 * MIB, maxDurationMs: 600_000 },
  altTextMaxLength: 4_086,
  mediaRequired: false,
};
