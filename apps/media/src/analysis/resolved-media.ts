import { MEDIA_ITEM_ANALYSED_SUBJECT, type MediaItemAnalysedEvent, type ResolvedMedia } from '@social/contracts';
import { enqueueEvent } from '@social/platform';
import type { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { MediaItemRow } from '../library/media-item.row.js';

/** What the public copy looks like for other services: ready when an URL can be issued and networks can reach it. */
export interface PublicAddressState {
  isPublic: boolean;
  notPublicReason: string;
}

/** A library item as other services see it (media.library.resolve and the analysed event). */
export function toResolvedMedia(row: MediaItemRow, address: PublicAddressState): ResolvedMedia {
  const ready = row.status === 'ready';
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    status: ready ? 'ready' : 'pending',
    filename: row.filename,
    mime_type: row.mimeType,
    size: Number(row.size),
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    duration_ms: Number(row.durationMs),
    frame_rate: Number(row.frameRate),
    analysis_status: row.analysisStatus,
    analysis_error: row.analysisError,
    poster_media_id: row.posterMediaId ?? '',
    thumbnail_timestamp_ms: Number(row.thumbnailTimestampMs),
    object_key: row.objectKey,
    public_url_ready: ready && address.isPublic,
    public_url_status: row.publicUrlStatus,
    public_url_checked_at: row.publicUrlCheckedAt ? row.publicUrlCheckedAt.toISOString() : '',
    // Why networks cannot fetch it comes first: the last check's error matters only when they could.
    public_url_error: address.isPublic ? row.publicUrlError : address.notPublicReason,
  };
}

/** `durable.media.item.analysed` for the item, in the caller's transaction (published iff it commits). */
export async function enqueueItemAnalysed(db: EntityManager, row: MediaItemRow, address: PublicAddressState): Promise<void> {
  const { object_key: _key, ...item } = toResolvedMedia(row, address);
  await enqueueEvent(db, MEDIA_ITEM_ANALYSED_SUBJECT, { ...item, event_id: uuidv7() } satisfies MediaItemAnalysedEvent);
}

/** The NOTIFY channel that wakes every replica's analysis worker (channels are database-wide). */
export const analysisChannel = (schema: string): string => `media_analysis:${schema}`;
