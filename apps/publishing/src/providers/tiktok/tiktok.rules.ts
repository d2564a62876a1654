import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/** TikTok's Content Posting API (see README.md beside this file): a video, or a photo post of up to 35 images. */
export const TIKTOK_RULES: NetworkRules = {
  text: { maxLength: 2_200, counting: 'utf16', threads: false, linkCard: false },
  attachments: { maxImages: 35, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/webp'], maxBytes: 20 * MIB, maxLongSide: 1_080, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 4 * 1024 * MIB, maxDurationMs: 600_000 },
  altTextMaxLength: 0,
  mediaRequired: true,
};
