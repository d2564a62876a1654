import type { NetworkRules } from '../network-rules.js';

/** YouTube uploads (see README.md beside this file): one video; the description holds 5,000 characters. */
export const YOUTUBE_RULES: NetworkRules = {
  text: { maxLength: 5_000, counting: 'utf16', threads: false, linkCard: false },
  attachments: { maxImages: 0, maxVideos: 1, mixed: false },
  // A thumbnail (role `thumbnail`) is set with thumbnails.set: 2 MiB.
  image: { mimeTypes: ['image/jpeg', 'image/png'], maxBytes: 2 * 1024 * 1024, maxLongSide: 1_280, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 256 * 1024 * 1024 * 1024, maxDurationMs: 0 },
  altTextMaxLength: 0,
  mediaRequired: true,
};
