import type { NetworkRules } from '../network-rules.js';

/** The sandbox's rules are the contract's own (§4 "The sandbox's rules"), so trials meet real-looking limits. */
export const SANDBOX_RULES: NetworkRules = {
  text: { maxLength: 500, counting: 'graphemes', threads: true, linkCard: false },
  attachments: { maxImages: 4, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'], maxBytes: 1_000_000, maxLongSide: 2_000, maxPixels: 0 },
  // Not fixed by the contract: anything a media library holds (4 GiB), any length.
  video: { mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 4 * 1024 * 1024 * 1024, maxDurationMs: 0 },
  altTextMaxLength: 1_000,
  mediaRequired: false,
};
