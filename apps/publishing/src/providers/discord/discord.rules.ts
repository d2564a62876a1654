import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/** A Discord channel webhook (see README.md beside this file): 2,000 characters, up to 10 files of 10 MiB. */
export const DISCORD_RULES: NetworkRules = {
  text: { maxLength: 2_000, counting: 'utf16', threads: true, linkCard: false },
  attachments: { maxImages: 10, maxVideos: 10, mixed: true },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'], maxBytes: 10 * MIB, maxLongSide: 0, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 10 * MIB, maxDurationMs: 0 },
  altTextMaxLength: 1_024,
  mediaRequired: false,
};
