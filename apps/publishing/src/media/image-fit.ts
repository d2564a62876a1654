import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { ImageRules } from '../providers/network-rules.js';

/** What a network receives for one image: re-encoded bytes without metadata, within its limits. */
export interface FittedImage {
  bytes: Buffer;
  mimeType: string;
  width: number;
  height: number;
  size: number;
  /** Whether the pixels were scaled down (not only re-encoded). */
  resized: boolean;
}

/** The largest source image we decode (sharp's own guard against decompression bombs). */
const MAX_INPUT_PIXELS = 100_000_000;
/** JPEG quality of the first encode, and the floor when shrinking for a byte limit. */
const JPEG_QUALITY = 85;
const JPEG_QUALITY_FLOOR = 60;
/** Each retry for a byte limit also scales the sides by this factor. */
const SHRINK_STEP = 0.85;

/** The encoder each delivered type uses; GIFs keep their own type (animation), anything else becomes JPEG or PNG. */
function outputType(sourceType: string, rules: ImageRules): 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif' {
  const accepted = (type: string) => rules.mimeTypes.includes(type);
  if ((sourceType === 'image/png' || sourceType === 'image/webp' || sourceType === 'image/gif') && accepted(sourceType)) return sourceType;
  if (accepted('image/jpeg')) return 'image/jpeg';
  return 'image/png';
}

/** Sides that fit the long-side and pixel limits, keeping the aspect ratio. */
export function fittedSize(
  width: number,
  height: number,
  rules: Pick<ImageRules, 'maxLongSide' | 'maxPixels'>,
): { width: number; height: number } {
  let scale = 1;
  const longSide = Math.max(width, height);
  if (rules.maxLongSide > 0 && longSide > rules.maxLongSide) scale = Math.min(scale, rules.maxLongSide / longSide);
  if (rules.maxPixels > 0 && width * height > rules.maxPixels) scale = Math.min(scale, Math.sqrt(rules.maxPixels / (width * height)));
  if (scale >= 1) return { width, height };
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/**
 * Re-encodes an image for a network (docs/decisions.md "Delivery with media"):
 * EXIF/XMP/IPTC metadata (GPS included) never survive, the orientation is
 * applied to the pixels first, a type the network refuses is converted, and
 * an image over its pixel or byte limit is scaled down until it fits.
 */
export async function fitImage(source: Readable | Buffer, sourceType: string, rules: ImageRules): Promise<FittedImage> {
  const input = Buffer.isBuffer(source) ? source : await collect(source);
  const decoded = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: sourceType === 'image/gif' });
  const meta = await decoded.metadata();
  // Orientation applied to the pixels, so the sides are as displayed.
  const rotated = (meta.orientation ?? 1) >= 5;
  const frameHeight = meta.pageHeight ?? meta.height ?? 0;
  const width = rotated ? frameHeight : (meta.width ?? 0);
  const height = rotated ? (meta.width ?? 0) : frameHeight;
  const mimeType = outputType(sourceType, rules);
  let target = fittedSize(width, height, rules);
  let quality = JPEG_QUALITY;
  for (;;) {
    const bytes = await encode(input, sourceType, mimeType, target, quality);
    if (rules.maxBytes <= 0 || bytes.length <= rules.maxBytes || (target.width <= 1 && target.height <= 1)) {
      return {
        bytes,
        mimeType,
        width: target.width,
        height: target.height,
        size: bytes.length,
        resized: target.width !== width || target.height !== height,
      };
    }
    // Too many bytes: lower the quality first (JPEG), then the sides.
    if (mimeType === 'image/jpeg' && quality > JPEG_QUALITY_FLOOR) quality = Math.max(JPEG_QUALITY_FLOOR, quality - 10);
    else
      target = { width: Math.max(1, Math.floor(target.width * SHRINK_STEP)), height: Math.max(1, Math.floor(target.height * SHRINK_STEP)) };
  }
}

async function encode(
  input: Buffer,
  sourceType: string,
  mimeType: string,
  size: { width: number; height: number },
  quality: number,
): Promise<Buffer> {
  // sharp drops all metadata unless told to keep it; rotate() bakes the EXIF orientation into the pixels.
  let pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: sourceType === 'image/gif' && mimeType === 'image/gif' })
    .rotate()
    .resize({ width: size.width, height: size.height, fit: 'fill' });
  if (mimeType === 'image/jpeg') pipeline = pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });
  else if (mimeType === 'image/png') pipeline = pipeline.png({ compressionLevel: 9 });
  else if (mimeType === 'image/webp') pipeline = pipeline.webp({ quality });
  else pipeline = pipeline.gif();
  return pipeline.toBuffer();
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
