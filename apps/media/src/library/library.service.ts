import { Inject, Injectable } from '@nestjs/common';
import {
  ListMediaQuery,
  MEDIA_PAGE_DEFAULT,
  MediaContentTarget,
  MediaItem,
  MediaList,
  type MediaUsage,
  type MediaUsageRequest,
  Principal,
  PublishingPatterns,
  SetMediaTagsRequest,
  WorkspaceRole,
} from '@social/contracts';
import {
  AccessControl,
  changedRows,
  createdAtPosition,
  CursorCodec,
  isCreatedAtPosition,
  type MediaStorage,
  preparedQuery,
  Problem,
  problems,
  RpcClient,
  SERVICE_CONFIG,
} from '@social/platform';
import { DataSource } from 'typeorm';
import type { MediaConfig } from '../config.js';
import { MEDIA_STORAGE } from '../storage/storage.module.js';
import type { MediaTagRow } from '../tags/media-tag.row.js';
import { findMediaItem, MEDIA_ITEM_COLUMNS, MediaItemRow, type StoredObjectRow, toMediaItem } from './media-item.row.js';

const NO_SUCH_ITEM = 'No such media item.';

@Injectable()
export class LibraryService {
  private readonly cursors: CursorCodec;

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly rpc: RpcClient,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
    @Inject(SERVICE_CONFIG) config: MediaConfig,
  ) {
    this.cursors = CursorCodec.derive(config.SECRETS_KEY, 'media');
  }

  /**
   * Ready library items (not those of project assets), newest first (created_at,
   * then id), one index range scan per page; `tag_id` narrows to one tag.
   */
  async list(principal: Principal, query: ListMediaQuery): Promise<MediaList> {
    const workspace = await this.access.requireWorkspace(principal, query.workspace_id, 'viewer', 'query');
    const tagId = query.tag_id?.toLowerCase() ?? '';
    const filters = { workspace_id: workspace.workspace_id, tag_id: tagId };
    const after = query.cursor ? this.cursors.decode(query.cursor, filters, isCreatedAtPosition) : undefined;
    const limit = query.limit ?? MEDIA_PAGE_DEFAULT;
    const values: unknown[] = [workspace.workspace_id];
    // Items of video-project assets are private to their project: never in the library.
    // Nor are videos' poster frames (items of their own, shown through their video).
    const conditions = [`m.workspace_id = $1`, `m.status = 'ready'`, `m.project_asset_id IS NULL`, `m.poster_of IS NULL`];
    if (tagId)
      conditions.push(`EXISTS (SELECT 1 FROM media_item_tags it WHERE it.media_id = m.id AND it.tag_id = $${values.push(tagId)}::uuid)`);
    if (after) conditions.push(`(m.created_at, m.id) < ($${values.push(after.at)}::timestamptz, $${values.push(after.id)}::uuid)`);
    const rows = await preparedQuery<MediaItemRow>(
      this.dataSource,
      `media.items.page.${tagId ? 'tag' : 'all'}.${after ? 'after' : 'first'}`,
      `SELECT ${MEDIA_ITEM_COLUMNS} FROM media_items m WHERE ${conditions.join(' AND ')}
       ORDER BY m.created_at DESC, m.id DESC LIMIT $${values.push(limit + 1)}`,
      values,
    );
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(toMediaItem),
      next_cursor: more ? this.cursors.encode(createdAtPosition(last), filters) : '',
    };
  }

  async get(principal: Principal, id: string): Promise<MediaItem> {
    return toMediaItem(await this.findVisible(principal, id, 'viewer'));
  }

  /** Internal, for the gateway's content route: where the bytes of a ready item are. */
  async contentTarget(principal: Principal, id: string): Promise<MediaContentTarget> {
    const item = await this.findVisible(principal, id, 'viewer');
    if (item.status !== 'ready') throw problems.conflict('media_not_ready', 'The upload of this item has not been completed yet.');
    return { object_key: item.objectKey, mime_type: item.mimeType, size: Number(item.size), filename: item.filename };
  }

  /**
   * The row is deleted and, before that commits, its object (and its poster frame's): storage being
   * unreachable is 503 `storage_unavailable` with the item kept (try again), never an item gone with
   * its bytes left. Publishing is asked first: an item a publication still to be published uses is
   * 409 `media_in_use` (publishing not answering is its 503/504: nothing is deleted).
   */
  async delete(principal: Principal, id: string): Promise<void> {
    const visible = await this.findVisible(principal, id, 'editor');
    if (visible.projectAssetId) {
      throw problems.conflict(
        'media_of_project_asset',
        "This item holds a video project's asset; delete the project asset (DELETE /video-projects/{id}/assets/{asset_id}) instead.",
      );
    }
    if (visible.posterOf) {
      throw problems.conflict('media_is_poster', "This item is a video's poster frame; it goes when the video is deleted.");
    }
    await this.requireUnused(visible);
    await this.dataSource.transaction(async (db) => {
      const item = await findMediaItem(db, id, true);
      if (!item) throw problems.notFound(NO_SUCH_ITEM);
      const posters = await changedRows<StoredObjectRow>(db, `DELETE FROM media_items WHERE poster_of = $1 RETURNING object_key`, [id]);
      const copies = await changedRows<StoredObjectRow>(db, `DELETE FROM media_delivery_copies WHERE media_id = $1 RETURNING object_key`, [
        id,
      ]);
      await db.query(`DELETE FROM media_items WHERE id = $1`, [id]);
      for (const stored of [...posters, ...copies]) await this.storage.delete(stored.object_key);
      await this.storage.delete(item.objectKey);
    });
  }

  private async requireUnused(item: MediaItemRow): Promise<void> {
    const usage = await this.rpc.send<MediaUsage>(PublishingPatterns.mediaUsage, {
      workspace_id: item.workspaceId,
      media_ids: [item.id],
    } satisfies MediaUsageRequest);
    if (Array.isArray(usage?.in_use) && usage.in_use.some((used) => used.toLowerCase() === item.id)) {
      throw problems.conflict(
        'media_in_use',
        `Media item ${item.id} is used by a publication that is not yet published or failed; remove it from the publication first.`,
      );
    }
  }

  /**
   * Replaces the item's tags (tags of its workspace; unknown or foreign ids are
   * 422 at their index). Counts are computed on read, so racing writers cannot
   * leave `item_count` wrong.
   */
  async setTags(principal: Principal, id: string, input: SetMediaTagsRequest): Promise<MediaItem> {
    const item = await this.findVisible(principal, id, 'editor');
    const tagIds = [...new Set(input.tag_ids.map((tagId) => tagId.toLowerCase()))];
    return this.dataSource.transaction(async (db) => {
      const locked = await findMediaItem(db, id, true);
      if (!locked) throw problems.notFound(NO_SUCH_ITEM);
      const known = await db.query<Array<Pick<MediaTagRow, 'id'>>>(
        `SELECT id FROM media_tags WHERE workspace_id = $1 AND id = ANY($2::uuid[])`,
        [item.workspaceId, tagIds],
      );
      const knownIds = new Set(known.map((tag) => tag.id));
      const errors = input.tag_ids
        .map((tagId, index) => ({ tagId, index }))
        .filter(({ tagId }) => !knownIds.has(tagId.toLowerCase()))
        .map(({ tagId, index }) => ({ location: `body.tag_ids[${index}]`, message: "is not a tag of the item's workspace", value: tagId }));
      if (errors.length > 0) throw new Problem(422, 'validation_failed', 'Some tags are not tags of the workspace.', { errors });
      await db.query(`DELETE FROM media_item_tags WHERE media_id = $1 AND NOT (tag_id = ANY($2::uuid[]))`, [id, tagIds]);
      await db.query(
        `INSERT INTO media_item_tags (media_id, tag_id, workspace_id) SELECT $1, t, $3 FROM unnest($2::uuid[]) AS t ON CONFLICT DO NOTHING`,
        [id, tagIds, item.workspaceId],
      );
      return toMediaItem((await findMediaItem(db, id))!);
    });
  }

  private findVisible(principal: Principal, id: string, need: WorkspaceRole): Promise<MediaItemRow> {
    return this.access.requireVisible(principal, () => findMediaItem(this.dataSource.manager, id), need, NO_SUCH_ITEM);
  }
}
