import { createHash } from 'node:crypto';
import type { SandboxPostMedia } from '@social/contracts';
import sharp from 'sharp';
import { DeliveryError, type OutgoingMedia } from '../social-provider.js';
import { SANDBOX_RULES } from './sandbox.rules.js';

export interface SandboxProblem {
  code: string;
  message: string;
}

/**
 * The most bytes of one image the sandbox reads to look at it (far
 * above its own limit: an over-limit image is refused, not read whole).
 */
const IMAGE_READ_LIMIT = SANDBOX_RULES.image.maxBytes * 8;
const graphemes = (text: string) => [...new Intl.Segmenter().segment(text)].length;

/** What the sandbox refuses before reading any bytes: too many attachments, images with a video, alt text too long. */
export function sandboxMediaProblem(media: OutgoingMedia[]): SandboxProblem | null {
  const { attachments, altTextMaxLength } = SANDBOX_RULES;
  const images = media.filter((item) => item.kind === 'image').length;
  const videos = media.length - images;
  if (images > 0 && videos > 0 && !attachments.mixed)
    return { code: 'sandbox_mixed_media', message: 'a post carries images or a video, not both.' };
  if (images > attachments.maxImages)
    return { code: 'sandbox_too_many_media', message: `a post carries at most ${attachments.maxImages} images; this one has ${images}.` };
  if (videos > attachments.maxVideos)
    return { code: 'sandbox_too_many_media', message: `a post carries at most ${attachments.maxVideos} video; this one has ${videos}.` };
  const longAlt = media.find((item) => graphemes(item.altText) > altTextMaxLength);
  if (longAlt)
    return {
      code: 'sandbox_alt_text_too_long',
      message: `alt text is at most ${altTextMaxLength} characters; media ${longAlt.mediaId} has ${graphemes(longAlt.altText)}.`,
    };
  return null;
}

/**
 * Reads one attachment as the network receives it: hashed and counted as it streams (a video is never
 * held whole); an image is looked at with sharp (its real sides, whether EXIF survived) and refused over
 * the sandbox's byte or pixel limit.
 */
export async function receiveMedia(
  item: OutgoingMedia,
): Promise<{ media: SandboxPostMedia; problem?: undefined } | { problem: SandboxProblem; media?: undefined }> {
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let size = 0;
  const stream = await item.open();
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
      if (item.kind === 'image' && size <= IMAGE_READ_LIMIT) kept.push(chunk);
    }
  } catch {
    throw new DeliveryError({
      outcome: 'retryable',
      code: 'media_storage_unavailable',
      message: 'The media could not be read to the end; trying again later.',
      httpStatus: 0,
    });
  }
  const media: SandboxPostMedia = {
    sha256: hash.digest('hex'),
    mime_type: item.mimeType,
    width: item.width,
    height: item.height,
    size,
    alt_text: item.altText,
    exif: false,
  };
  if (item.kind !== 'image') return { media };
  const { maxBytes, maxLongSide } = SANDBOX_RULES.image;
  if (size > maxBytes)
    return {
      problem: { code: 'sandbox_image_too_large', message: `images are at most ${maxBytes} bytes; media ${item.mediaId} has ${size}.` },
    };
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(Buffer.concat(kept)).metadata();
  } catch {
    return { problem: { code: 'sandbox_image_unreadable', message: `media ${item.mediaId} is not an image the sandbox can read.` } };
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (Math.max(width, height) > maxLongSide) {
    return {
      problem: {
        code: 'sandbox_image_too_large',
        message: `images are at most ${maxLongSide} px on the long side; media ${item.mediaId} is ${width}×${height}.`,
      },
    };
  }
  return {
    media: {
      ...media,
      mime_type: meta.format ? `image/${meta.format === 'jpeg' ? 'jpeg' : meta.format}` : item.mimeType,
      width,
      height,
      exif: meta.exif !== undefined,
    },
  };
}
