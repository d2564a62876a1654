import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/** Facebook Page posts (see README.md beside this file); conservative where the Graph API documents no single value. */
export const FACEBOOK_RULES: NetworkRules = {
  text: { maxLength: 63_206, counting: 'utf16', threads: false, linkCard: true },
  attachments: { maxImages: 10, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/gif'], maxBytes: 4 * MIB, maxLongSide: 2_048, maxPixels: 0 },
  // Resumable uploads take up to 10 GB and 4 hours (Graph API "Video uploads"); the bytes stream, never held whole.
  video: { mimeTypes: ['video/mp4', 'video/quicktime'], maxBytes: 10_000_000_000, maxDurationMs: 4 * 3_600_000 },
  altTextMaxLength: 1_000,
  mediaRequired: false,
};
