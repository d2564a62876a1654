import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/** Facebook Page posts (see README.md beside this file); conservative where the Graph API documents no single value. */
export const FACEBOOK_RULES: NetworkRules = {
  text: { maxLength: 63_206, counting: 'utf16', threads: false, linkCard: true },
  attachments: { maxImages: 10, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/gif'], maxBytes: 4 * MIB, maxLongSide: 2_048, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4', 'video/quicktime'], maxBytes: 1024 * MIB, maxDurationMs: 1_200_000 },
  altTextMaxLength: 1_000,
  mediaRequired: false,
};
