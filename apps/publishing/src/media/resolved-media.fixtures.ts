import type { ResolvedMedia } from '@social/contracts';

/** For specs: a ready library item as media.library.resolve answers it, with `extra` on top. */
export const readyMedia = (id: string, extra: Partial<ResolvedMedia> = {}): ResolvedMedia => ({
  id,
  workspace_id: 'w',
  status: 'ready',
  filename: id,
  mime_type: 'image/jpeg',
  size: 0,
  sha256: '',
  width: 0,
  height: 0,
  duration_ms: 0,
  frame_rate: 0,
  analysis_status: 'ready',
  analysis_error: '',
  poster_media_id: '',
  thumbnail_timestamp_ms: 0,
  object_key: `objects/${id}`,
  public_url_ready: false,
  public_url_status: 0,
  public_url_checked_at: '',
  public_url_error: '',
  ...extra,
});
