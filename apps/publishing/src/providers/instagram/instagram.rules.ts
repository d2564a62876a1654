import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/** Instagram content publishing (see README.md beside this file): a caption with an image, a carousel or a reel; JPEG only. */
export const INSTAGRAM_RULES: NetworkRules = {
  text: { maxLength: 2_200, counting: 'utf16', threads: false, linkCard: false },
  attachments: { maxImages: 10, maxVideos: 10, mixed: true },
  image: { mimeTypes: ['image/jpeg'], maxBytes: 8 * MIB, maxLongSide: 1_440, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4', 'video/quicktime'], maxBytes: 300 * MIB, maxDurationMs: 900_000 },
  // The Graph API's alt_text for images.
  altTextMaxLength: 1_000,
  mediaRequired: true,
};
