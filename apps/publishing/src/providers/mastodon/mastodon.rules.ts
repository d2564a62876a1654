import type { NetworkRules } from '../network-rules.js';

/**
 * Mastodon's table, from its documentation and defaults (docs.joinmastodon.org,
 * "POST /api/v2/media" and the server's MediaAttachment limits): 500
 * characters a status (a server default), 4 attachments and never images with
 * a video, images up to 16 MB (the server downsizes anything over 3840×2160 =
 * 8,294,400 px, so we do it first), videos up to 99 MB, alt text
 * (`description`) up to 1,500 characters.
 */
export const MASTODON_RULES: NetworkRules = {
  text: { maxLength: 500, counting: 'graphemes' },
  attachments: { maxImages: 4, maxVideos: 1, mixed: false },
  image: { mimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'], maxBytes: 16 * 1024 * 1024, maxLongSide: 0, maxPixels: 8_294_400 },
  video: { mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'], maxBytes: 99 * 1024 * 1024, maxDurationMs: 0 },
  altTextMaxLength: 1_500,
  mediaRequired: false,
};
