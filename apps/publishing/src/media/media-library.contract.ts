/**
 * The media service's side of attaching media (the interface agreed between media and
 * publishing for issue 21): `media.library.resolve` answers the facts of the ids that are items of
 * a workspace's library, and `durable.media.item.analysed` tells when they change.
 * Kept here until the media contracts in @social/contracts carry these names; then this file
 * re-exports those and goes.
 */
export const MEDIA_LIBRARY_RESOLVE = 'media.library.resolve';
export const MEDIA_ITEM_ANALYSED_SUBJECT = 'durable.media.item.analysed';
/** Ids one resolve request may name. */
export const RESOLVE_MAX_IDS = 100;

export interface ResolvedMedia {
  id: string;
  workspace_id: string;
  status: 'pending' | 'ready' | string;
  filename: string;
  mime_type: string;
  size: number;
  sha256: string;
  width: number;
  height: number;
  duration_ms: number;
  frame_rate: number;
  analysis_status: 'pending' | 'ready' | 'failed' | string;
  analysis_error: string;
  /** '' when none. */
  poster_media_id: string;
  thumbnail_timestamp_ms: number;
  object_key: string;
  public_url_ready: boolean;
  public_url_status: number;
  /** '' or RFC 3339. */
  public_url_checked_at: string;
  public_url_error: string;
}

export interface ResolvedMediaList {
  items: ResolvedMedia[];
}

/** The analysed event: the item's facts without its storage key. */
export type MediaItemAnalysedEvent = Omit<ResolvedMedia, 'object_key'> & { event_id: string };
