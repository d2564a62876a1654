import { expect } from '@jest/globals';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { call } from './api.js';

/** A small valid ImageEditorDocument: one page with a coloured background and a shape; `extra` members override. */
export function simpleDocument(extra: Record<string, unknown> = {}, pageExtra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    width_px: 64,
    height_px: 48,
    pages: [
      {
        id: 'page-1',
        background: { type: 'color', color: '#ff0000' },
        layers: [
          { id: 'box', type: 'shape', transform: { x: 8, y: 8, width: 16, height: 16 }, shape: { kind: 'rectangle', fill: '#0000ff' } },
        ],
        ...pageExtra,
      },
    ],
    ...extra,
  };
}

export async function createDesign(
  token: string,
  workspaceId: string,
  document: unknown = simpleDocument(),
  name = 'Poster',
): Promise<any> {
  const response = await call('POST', '/image-editor/designs', { token, body: { workspace_id: workspaceId, name, document } });
  expect(response.status).toBe(201);
  return response.body;
}

/** A real PNG of one colour (decodable, unlike support/media.ts pngBytes). */
export function solidPng(width: number, height: number, color: string): Buffer {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = color;
  ctx.fillRect(0, 0, width, height);
  return canvas.toBuffer('image/png');
}

/** The RGBA pixels of encoded image bytes, and a reader for one pixel. */
export async function pixelsOf(
  bytes: Buffer,
): Promise<{ width: number; height: number; at: (x: number, y: number) => [number, number, number, number] }> {
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  return {
    width: image.width,
    height: image.height,
    at: (x, y) => {
      const i = (y * image.width + x) * 4;
      return [data[i], data[i + 1], data[i + 2], data[i + 3]];
    },
  };
}

/** The distinct `errors[].location`s of a problem, in order (a member breaking several rules is named once). */
export const where = (problem: { errors?: Array<{ location: string }> }) => [...new Set((problem.errors ?? []).map((e) => e.location))];

/** Close to a colour, allowing for anti-aliasing and JPEG. */
export function expectColor(actual: [number, number, number, number], expected: [number, number, number], tolerance = 8) {
  for (let i = 0; i < 3; i += 1) expect(Math.abs(actual[i] - expected[i])).toBeLessThanOrEqual(tolerance);
}
