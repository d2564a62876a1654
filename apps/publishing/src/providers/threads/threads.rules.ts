import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/** Threads (see README.md beside this file): 500 characters, a carousel of up to 20 items (images and videos may mix). */
export const THREADS_RULES: NetworkRules = {
  text: { maxLength: 500, counting: 'utf16', threads: true, linkCard: false },
  attachments: { maxImages: 20, maxVideos: 20, mixed: true },
  image: { mimeTypes: ['image/jpeg', 'image/png'], maxBytes: 8 * MIB, maxLongSide: 1_440, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4', 'video/quicktime'], maxBytes: 1024 * MIB, maxDurationMs: 300_000 },
  altTextMaxLength: 1_000,
  mediaRequired: false,
};
