import sharp from 'sharp';
import { call } from './api.js';
import { mp4Bytes, uploadMedia } from './media.js';

/**
 * A JPEG of `width` × `height` carrying EXIF (with GPS-looking tags), as
 * cameras write them; noise so each is unique and realistically large.
 */
export async function jpegBytes(width: number, height: number, seed = Math.random()): Promise<Buffer> {
  const noise = Buffer.alloc(64 * 64 * 3);
  for (let i = 0; i < noise.length; i += 1) noise[i] = Math.floor(((Math.sin(i * 12.9898 + seed * 78.233) + 1) / 2) * 255);
  return sharp(noise, { raw: { width: 64, height: 64, channels: 3 } })
    .resize(width, height, { kernel: 'nearest' })
    .withExif({ IFD0: { Make: 'E2E Camera', Model: 'Test' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A ready image item of the workspace library. */
export const uploadImage = async (token: string, workspaceId: string, width = 1080, height = 1350): Promise<any> =>
  uploadMedia(token, workspaceId, await jpegBytes(width, height), 'picture.jpg');

/** A ready video item (an MP4 saying `durationMs`). */
export const uploadVideo = (token: string, workspaceId: string, durationMs = 5_000): Promise<any> =>
  uploadMedia(token, workspaceId, mp4Bytes(durationMs), 'clip.mp4');

export const patchPublication = (token: string, id: string, body: unknown) => call('PATCH', `/publications/${id}`, { token, body });
export const patchRendition = (token: string, id: string, renditionId: string, body: unknown) =>
  call('PATCH', `/publications/${id}/renditions/${renditionId}`, { token, body });
export const preview = (token: string, id: string, body: unknown = {}) => call('POST', `/publications/${id}/preview`, { token, body });
