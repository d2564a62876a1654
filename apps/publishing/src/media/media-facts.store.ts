import { Injectable } from '@nestjs/common';
import { type FieldError, type Principal, type ResolvedMedia } from '@social/contracts';
import { problems } from '@social/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { MediaFacts } from './attached-media.js';
import { MediaLibraryClient } from './media-library.client.js';

const COLUMNS = [
  'media_id',
  'workspace_id',
  'status',
  'filename',
  'mime_type',
  'size',
  'sha256',
  'width',
  'height',
  'duration_ms',
  'frame_rate',
  'analysis_status',
  'analysis_error',
  'poster_media_id',
  'thumbnail_timestamp_ms',
  'object_key',
  'public_url_ready',
  'public_url_status',
  'public_url_checked_at',
  'public_url_error',
] as const;
const TYPES = [
  'uuid',
  'uuid',
  'text',
  'text',
  'text',
  'int8',
  'text',
  'int4',
  'int4',
  'int8',
  'float8',
  'text',
  'text',
  'text',
  'int8',
  'text',
  'bool',
  'int4',
  'text',
  'text',
];

type FactsRow = Omit<MediaFacts, 'id'> & { media_id: string };

/** A facts row as the API reads it (bigint columns arrive as strings). */
function fromRow(row: FactsRow): MediaFacts {
  const { media_id, ...rest } = row;
  return {
    ...rest,
    id: media_id,
    size: Number(row.size),
    duration_ms: Number(row.duration_ms),
    thumbnail_timestamp_ms: Number(row.thumbnail_timestamp_ms),
    frame_rate: Number(row.frame_rate),
  };
}

/** A media id the request named, and where. */
export interface MediaReference {
  mediaId: string;
  location: string;
}

/**
 * Publishing's copy of the facts of the library items its publications attach
 * (table media_facts): resolved from the media service when media are attached,
 * refreshed by its analysed events, read whenever a publication is answered.
 */
@Injectable()
export class MediaFactsStore {
  constructor(private readonly library: MediaLibraryClient) {}

  /**
   * Asks media for the items, as the caller, and refuses (422 at each location) every reference that
   * is not a ready item of the workspace's library: unknown, deleted, another workspace's, or pending.
   */
  async resolveReady(principal: Principal, workspaceId: string, references: MediaReference[]): Promise<ResolvedMedia[]> {
    if (references.length === 0) return [];
    const found = await this.library.resolve(
      workspaceId,
      references.map((reference) => reference.mediaId),
      principal,
    );
    const errors: FieldError[] = [];
    for (const { mediaId, location } of references) {
      const item = found.get(mediaId.toLowerCase());
      if (!item) errors.push({ location, message: 'is not a media item of the workspace library', value: mediaId });
      else if (item.status !== 'ready') errors.push({ location, message: 'is a media item whose upload is not complete', value: mediaId });
    }
    if (errors.length > 0) throw problems.validation(errors, 'Some media are not ready items of the workspace library.');
    return [...found.values()];
  }

  /** Keeps the facts of resolved items (a newer answer replaces an older one). */
  async record(db: EntityManager | DataSource, items: ResolvedMedia[]): Promise<void> {
    if (items.length === 0) return;
    const rows = items.map((item) => ({ ...item, media_id: item.id }) as unknown as Record<string, unknown>);
    const unnest = COLUMNS.map((column, index) => `$${index + 1}::${TYPES[index]}[]`).join(', ');
    await db.query(
      `INSERT INTO media_facts (${COLUMNS.join(', ')}) SELECT * FROM unnest(${unnest})
       ON CONFLICT (media_id) DO UPDATE SET ${COLUMNS.slice(1)
         .map((column) => `${column} = EXCLUDED.${column}`)
         .join(', ')}, updated_at = now()`,
      COLUMNS.map((column) => rows.map((row) => row[column])),
    );
  }
}

/** The facts of the ids publishing knows (ids it never resolved are absent). */
export async function loadMediaFacts(db: EntityManager | DataSource, ids: string[]): Promise<Map<string, MediaFacts>> {
  if (ids.length === 0) return new Map();
  const rows: FactsRow[] = await db.query(`SELECT ${COLUMNS.join(', ')} FROM media_facts WHERE media_id = ANY($1::uuid[])`, [ids]);
  return new Map(rows.map((row) => [row.media_id, fromRow(row)]));
}
