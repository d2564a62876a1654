import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/** Instagram content publishing (see README.md beside this file): a caption with an image, a carousel or a reel; JPEG only. */
export const INSTAGRAM_RULES: NetworkRules = {
  text: { maxLength: 2_200, counting: 'utf16', threads: false, linkCard: false },
  attachments: { maxImages: 10, maxVideos: 10, mixed: true },
  image: { mimeTypes: ['image/jpeg'], maxBytes: 8 * MIB, maxLongSide: 1_440, maxPixels: 0 },
  // Reels: MOV or MP4, up to 300 MB and 15 minutes.
  video: { mimeTypes: ['video/mp4', 'video/quicktime'], maxBytes: 300 * MIB, maxDurationMs: 900_000 },
  // The Graph API's alt_text for images.
  altTextMaxLength: 1_000,
  mediaRequired: true,
};

/**
 * Width ÷ height Instagram takes, which resizing cannot fix (the adapter refuses anything outside before calling
 * Instagram): feed images from 4:5 to 1.91:1, reels from 0.01:1 to 10:1. The NetworkRules type has no member for
 * it, so it is kept here and checked by the adapter (instagram.provider.ts).
 */
export const INSTAGRAM_ASPECT_RATIOS = {
  image: { min: 4 / 5, max: 1.91 },
  video: { min: 0.01, max: 10 },
} as const;

/** Reels last at least 3 seconds (the rules table's maxDurationMs is the upper bound). */
export const INSTAGRAM_MIN_VIDEO_MS = 3_000;
/** A carousel holds 2 to 10 images and videos. */
export const INSTAGRAM_CAROUSEL_MAX = 10;
/** A first comment, like a caption, holds at most 2,200 characters. */
export const INSTAGRAM_COMMENT_MAX = 2_200;
