import type { NetworkRules } from '../network-rules.js';

const MIB = 1024 * 1024;

/** The Telegram Bot API (see README.md beside this file): 4,096 characters of text, a media group of up to 10 items. */
export const TELEGRAM_RULES: NetworkRules = {
  // A message with media carries a caption of at most 1,024 characters; the conservative text limit applies to posts with media too.
  text: { maxLength: 4_096, counting: 'utf16', threads: true, linkCard: false },
  attachments: { maxImages: 10, maxVideos: 10, mixed: true },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 10 * MIB, maxLongSide: 0, maxPixels: 0 },
  video: { mimeTypes: ['video/mp4'], maxBytes: 50 * MIB, maxDurationMs: 0 },
  altTextMaxLength: 0,
  mediaRequired: false,
};
