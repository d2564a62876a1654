import type { NetworkRules } from '../network-rules.js';

/**
 * YouTube uploads (see README.md beside this file): a post is one video. Its description holds 5,000 bytes (the
 * table counts 5,000 characters; the adapter cuts a longer UTF-8 text at 5,000 bytes); the title is the publication's
 * title (else the text's first line), cut at 100 characters. Videos up to 256 GB and 12 hours.
 */
export const YOUTUBE_RULES: NetworkRules = {
  text: { maxLength: 5_000, counting: 'utf16', threads: false, linkCard: false },
  attachments: { maxImages: 0, maxVideos: 1, mixed: false },
  // A thumbnail (role `thumbnail`) is set with thumbnails.set: 2 MiB.
  image: { mimeTypes: ['image/jpeg', 'image/png'], maxBytes: 2 * 1024 * 1024, maxLongSide: 1_280, maxPixels: 0 },
  video: {
    mimeTypes: [
      'video/mp4',
      'video/quicktime',
      'video/webm',
      'video/x-msvideo',
      'video/mpeg',
      'video/x-flv',
      'video/3gpp',
      'video/x-ms-wmv',
    ],
    maxBytes: 256 * 1000 ** 3,
    maxDurationMs: 12 * 3_600_000,
  },
  altTextMaxLength: 0,
  mediaRequired: true,
};
