import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { OutgoingMedia } from '../social-provider.js';
import { receiveMedia, sandboxMediaProblem } from './sandbox-media.js';

const media = (bytes: Buffer, extra: Partial<OutgoingMedia> = {}): OutgoingMedia => ({
  mediaId: 'm1',
  kind: 'image',
  mimeType: 'image/jpeg',
  altText: '',
  size: bytes.length,
  width: 0,
  height: 0,
  durationMs: 0,
  open: async () => Readable.from([bytes]),
  publicUrl: async () => 'https://media.invalid/not-served',
  ...extra,
});
const jpeg = (width: number, height: number, exif = false) => {
  const image = sharp({ create: { width, height, channels: 3, background: '#345' } });
  return (exif ? image.withExif({ IFD0: { Make: 'Spec' } }) : image).jpeg().toBuffer();
};

/** The sandbox network's own checks of what it receives (docs/decisions.md "The sandbox's rules"), read from the delivered bytes. */
describe('sandbox media rules', () => {
  it('refuses images with a video, more than 4 images or 1 video, and alt text over 1,000 characters', async () => {
    const image = media(Buffer.alloc(1));
    const video = media(Buffer.alloc(1), { kind: 'video', mimeType: 'video/mp4' });
    expect(sandboxMediaProblem([image, video])?.code).toBe('sandbox_mixed_media');
    expect(sandboxMediaProblem([image, image, image, image, image])?.code).toBe('sandbox_too_many_media');
    expect(sandboxMediaProblem([video, video])?.code).toBe('sandbox_too_many_media');
    expect(sandboxMediaProblem([media(Buffer.alloc(1), { altText: 'é'.repeat(1_001) })])?.code).toBe('sandbox_alt_text_too_long');
    expect(sandboxMediaProblem([image, image, image, image])).toBeNull();
    // 1,000 user-perceived characters (emoji of several code points each) are within the limit.
    expect(sandboxMediaProblem([media(Buffer.alloc(1), { altText: '👩‍👩‍👧'.repeat(1_000) })])).toBeNull();
  });

  it('records what it received: hash, type, sides and size of the bytes, alt text, and whether EXIF survived', async () => {
    const bytes = await jpeg(640, 480, true);
    const got = await receiveMedia(media(bytes, { altText: 'A harbour' }));
    expect(got).toEqual({
      media: {
        sha256: createHash('sha256').update(bytes).digest('hex'),
        mime_type: 'image/jpeg',
        width: 640,
        height: 480,
        size: bytes.length,
        alt_text: 'A harbour',
        exif: true,
      },
    });
    expect((await receiveMedia(media(await jpeg(10, 10)))).media?.exif).toBe(false);
  });

  it('refuses an image over 2,000 px on the long side or over 1,000,000 bytes, and one it cannot read', async () => {
    expect((await receiveMedia(media(await jpeg(2001, 100)))).problem?.code).toBe('sandbox_image_too_large');
    expect((await receiveMedia(media(Buffer.concat([await jpeg(10, 10), Buffer.alloc(1_000_000)])))).problem?.code).toBe(
      'sandbox_image_too_large',
    );
    expect((await receiveMedia(media(Buffer.from('not an image')))).problem?.code).toBe('sandbox_image_unreadable');
  });

  it('hashes a video as it streams, without looking inside', async () => {
    const chunks = Array.from({ length: 20 }, (_, index) => Buffer.alloc(65_536, index));
    const got = await receiveMedia({
      ...media(Buffer.alloc(0), { kind: 'video', mimeType: 'video/mp4', width: 1280, height: 720 }),
      open: async () => Readable.from(chunks),
    });
    expect(got.media).toEqual({
      sha256: createHash('sha256').update(Buffer.concat(chunks)).digest('hex'),
      mime_type: 'video/mp4',
      width: 1280,
      height: 720,
      size: 20 * 65_536,
      alt_text: '',
      exif: false,
    });
  });
});
