import type { ImagePage } from '@social/contracts';

/** What the render worker is handed (structured-cloned into it): one page and the bytes of the media it shows. */
export interface RenderJob {
  width: number;
  height: number;
  page: ImagePage;
  format: 'png' | 'jpeg';
  /** JPEG quality, 0–1. */
  quality: number;
  /** What transparent pixels become in a JPEG ("" : white). */
  matteColor: string;
  images: Array<{ mediaId: string; bytes: Uint8Array }>;
}

/** The worker's answer: the encoded image, or the media whose bytes could not be decoded. */
export type RenderOutcome = { ok: true; bytes: Uint8Array } | { ok: false; undecodable: string[] };
