import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { fitImage, fittedSize } from './image-fit.js';
import type { ImageRules } from '../providers/network-rules.js';

const RULES: ImageRules = {
  mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
  maxBytes: 1_000_000,
  maxLongSide: 2_000,
  maxPixels: 0,
};

/** A noisy photo-like JPEG (noise does not compress, so bytes matter) with EXIF GPS. */
async function photo(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .withExif({ IFD0: { Make: 'Test camera' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
    .toBuffer();
}

describe('fitImage', () => {
  it('scales an image over the long side and byte limits down to fit, keeping its aspect ratio and no metadata', async () => {
    const source = await photo(4000, 3000);
    expect((await sharp(source).metadata()).exif).toBeDefined();
    const fitted = await fitImage(source, 'image/jpeg', RULES);
    expect(fitted.mimeType).toBe('image/jpeg');
    expect(Math.max(fitted.width, fitted.height)).toBeLessThanOrEqual(2_000);
    expect(fitted.size).toBeLessThanOrEqual(1_000_000);
    expect(fitted.size).toBe(fitted.bytes.length);
    expect(Math.abs(fitted.width / fitted.height - 4 / 3)).toBeLessThan(0.01);
    expect(fitted.resized).toBe(true);
    const meta = await sharp(fitted.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([fitted.width, fitted.height]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
  });

  it('re-encodes a small image without resizing it, and converts a type the network refuses', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#336699' } })
      .png()
      .toBuffer();
    const kept = await fitImage(png, 'image/png', RULES);
    expect([kept.mimeType, kept.width, kept.height, kept.resized]).toEqual(['image/png', 40, 30, false]);
    const converted = await fitImage(png, 'image/png', { ...RULES, mimeTypes: ['image/jpeg'] });
    expect(converted.mimeType).toBe('image/jpeg');
    expect((await sharp(converted.bytes).metadata()).format).toBe('jpeg');
  });

  it('fits the pixel limit as well as the long side', () => {
    expect(fittedSize(4000, 3000, { maxLongSide: 0, maxPixels: 3_000_000 })).toEqual({ width: 2000, height: 1500 });
    expect(fittedSize(100, 50, { maxLongSide: 2000, maxPixels: 0 })).toEqual({ width: 100, height: 50 });
  });
});
