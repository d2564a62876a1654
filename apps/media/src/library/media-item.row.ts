import { type MediaAnalysisStatus, type MediaItem, MEDIA_ITEM_STATUSES } from '@social/contracts';
import type { EntityManager } from 'typeorm';

/**
 * `media_items.status`: the library's (the contract's), then two tombstones only completion and the upload route see:
 * `merged`, a completed session whose bytes `mergedInto` already held; `expired`, a swept session (its bytes gone), kept a day.
 */
export const MEDIA_ITEM_STATES = [...MEDIA_ITEM_STATUSES, 'merged', 'expired'] as const;
export type MediaItemState = (typeof MEDIA_ITEM_STATES)[number];
/** The library's statuses as an SQL list: `'pending', 'ready'`. */
const LIBRARY_STATES_SQL = MEDIA_ITEM_STATUSES.map((status) => `'${status}'`).join(', ');

/** A row of `media_items` as the queries here select it (MEDIA_ITEM_COLUMNS). */
export interface MediaItemRow {
  id: string;
  workspaceId: string;
  filename: string;
  declaredMimeType: string;
  declaredSha256: string;
  size: string;
  status: MediaItemState;
  mergedInto: string | null;
  mimeType: string;
  sha256: string;
  width: number;
  height: number;
  durationMs: string;
  objectKey: string;
  projectAssetId: string | null;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  tagIds: string[];
  analysisStatus: MediaAnalysisStatus;
  analysisError: string;
  frameRate: number;
  thumbnailTimestampMs: string;
  posterMediaId: string | null;
  /** Set on a poster frame: the video it was taken from (posters are not library items). */
  posterOf: string | null;
  publicUrlStatus: number;
  publicUrlCheckedAt: Date | null;
  publicUrlError: string;
}

/** An item's stored object, in the column's own name (deletions answer it to drop the bytes after commit). */
export interface StoredObjectRow {
  object_key: string;
}

/** Select list of MediaItemRow over `media_items m`, the tag ids by tag name ignoring case. */
export const MEDIA_ITEM_COLUMNS = `
  m.id, m.workspace_id AS "workspaceId", m.filename, m.declared_mime_type AS "declaredMimeType",
  m.declared_sha256 AS "declaredSha256", m.size, m.status, m.mime_type AS "mimeType", m.sha256, m.width, m.height,
  m.duration_ms AS "durationMs", m.object_key AS "objectKey", m.project_asset_id AS "projectAssetId", m.merged_into AS "mergedInto",
  m.created_by AS "createdBy", m.created_at AS "createdAt", m.expires_at AS "expiresAt",
  m.analysis_status AS "analysisStatus", m.analysis_error AS "analysisError", m.frame_rate AS "frameRate",
  m.thumbnail_timestamp_ms AS "thumbnailTimestampMs", m.poster_media_id AS "posterMediaId", m.poster_of AS "posterOf",
  m.public_url_status AS "publicUrlStatus", m.public_url_checked_at AS "publicUrlCheckedAt", m.public_url_error AS "publicUrlError",
  coalesce((SELECT array_agg(it.tag_id ORDER BY lower(t.name), t.id) FROM media_item_tags it JOIN media_tags t ON t.id = it.tag_id
             WHERE it.media_id = m.id), '{}') AS "tagIds"`;

/** The item (pending or ready); merged and expired tombstones only when asked for (completion answers them). */
export async function findMediaItem(db: EntityManager, id: string, lock = false, includeTombstones = false): Promise<MediaItemRow | null> {
  const [row] = await db.query<MediaItemRow[]>(
    `SELECT ${MEDIA_ITEM_COLUMNS} FROM media_items m
     WHERE m.id = $1${includeTombstones ? '' : ` AND m.status IN (${LIBRARY_STATES_SQL})`}${lock ? ' FOR UPDATE OF m' : ''}`,
    [id],
  );
  return row ?? null;
}

export function toMediaItem(row: MediaItemRow): MediaItem {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    filename: row.filename,
    mime_type: row.mimeType,
    size: Number(row.size),
    sha256: row.sha256,
    status: row.status,
    width: row.width,
    height: row.height,
    duration_ms: Number(row.durationMs),
    tag_ids: row.tagIds,
    created_at: row.createdAt.toISOString(),
  };
}
