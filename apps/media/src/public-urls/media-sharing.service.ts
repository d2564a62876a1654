import { Inject, Injectable } from '@nestjs/common';
import {
  IssuePublicUrlRequest,
  MediaContentTarget,
  type Principal,
  type MediaItem,
  type PublicMediaUrl,
  ReadMediaItemRequest,
  ResolvedMediaList,
  ResolveMediaRequest,
  ShareDeliveryCopyRequest,
} from '@social/contracts';
import { AccessControl, deliveryCopyKey, isUuid, type MediaStorage, problems } from '@social/platform';
import { DataSource } from 'typeorm';
import { toResolvedMedia } from '../analysis/resolved-media.js';
import { findMediaItem, MEDIA_ITEM_COLUMNS, type MediaItemRow, toMediaItem } from '../library/media-item.row.js';
import { MEDIA_STORAGE } from '../storage/storage.module.js';
import { PublicUrls } from './public-urls.js';

const NO_SUCH_ITEM = 'No such media item.';

/** What other services (and the gateway's public route) learn of media items: resolved facts, public URLs, public bytes. */
@Injectable()
export class MediaSharingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly publicUrls: PublicUrls,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
  ) {}

  /**
   * The workspace's library items (pending or ready) among the ids, in the order asked; ids that
   * are not UUIDs, unknown, deleted, another workspace's, posters or project assets' are absent.
   * A caller acting for a user (an envelope with a principal) must be able to see the workspace.
   */
  async resolve(principal: Principal | null, input: ResolveMediaRequest): Promise<ResolvedMediaList> {
    const workspaceId = input.workspace_id.toLowerCase();
    if (principal) await this.access.requireWorkspace(principal, workspaceId, 'viewer', 'body');
    const ids = [...new Set(input.media_ids.filter(isUuid).map((id) => id.toLowerCase()))];
    if (ids.length === 0) return { items: [] };
    const rows = await this.dataSource.query<MediaItemRow[]>(
      `SELECT ${MEDIA_ITEM_COLUMNS} FROM media_items m
        WHERE m.id = ANY($1::uuid[]) AND m.workspace_id = $2 AND m.status IN ('pending', 'ready') AND m.project_asset_id IS NULL
          AND m.poster_of IS NULL`,
      [ids, workspaceId],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return { items: ids.filter((id) => byId.has(id)).map((id) => toResolvedMedia(byId.get(id)!, this.publicUrls)) };
  }

  /** A ready library item of the workspace as the API shows it (not a poster or a project asset's), or null. */
  async readItem(input: ReadMediaItemRequest): Promise<MediaItem | null> {
    const item = await findMediaItem(this.dataSource.manager, input.media_id.toLowerCase());
    const shown =
      item?.workspaceId === input.workspace_id.toLowerCase() && item.status === 'ready' && !item.projectAssetId && !item.posterOf;
    return shown ? toMediaItem(item) : null;
  }

  /** A public URL of a ready item of the workspace (posters included: a network may fetch a video's thumbnail). */
  async issuePublicUrl(principal: Principal | null, input: IssuePublicUrlRequest): Promise<PublicMediaUrl> {
    if (principal) await this.access.requireWorkspace(principal, input.workspace_id.toLowerCase(), 'viewer', 'body');
    const item = await findMediaItem(this.dataSource.manager, input.media_id.toLowerCase());
    if (!item || item.workspaceId !== input.workspace_id.toLowerCase()) throw problems.notFound(NO_SUCH_ITEM);
    if (item.status !== 'ready') throw problems.conflict('media_not_ready', 'The upload of this item has not been completed yet.');
    return this.publicUrls.issue(item.id);
  }

  /**
   * A public URL of an image as a network receives it (docs/decisions.md "Delivery with media"): the copy publishing
   * stored at the item's deliveryCopyKey is recorded (once, whatever the number of deliveries asking) and signed like
   * an item. The stored object must be there with the size named: a URL never points at nothing.
   */
  async shareDeliveryCopy(input: ShareDeliveryCopyRequest): Promise<PublicMediaUrl> {
    const workspaceId = input.workspace_id.toLowerCase();
    const mediaId = input.media_id.toLowerCase();
    const copyId = input.copy_id.toLowerCase();
    const item = await findMediaItem(this.dataSource.manager, mediaId);
    if (!item || item.workspaceId !== workspaceId) throw problems.notFound(NO_SUCH_ITEM);
    if (item.status !== 'ready') throw problems.conflict('media_not_ready', 'The upload of this item has not been completed yet.');
    const objectKey = deliveryCopyKey(workspaceId, mediaId, copyId);
    const stored = await this.storage.stat(objectKey);
    if (stored?.size !== input.size) throw problems.notFound('No delivery copy of this item is stored under that id.');
    await this.dataSource.query(
      `INSERT INTO media_delivery_copies (id, media_id, object_key, mime_type, size) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO NOTHING`,
      [copyId, mediaId, objectKey, input.mime_type, input.size],
    );
    return this.publicUrls.issue(copyId);
  }

  /**
   * Internal, for the gateway's public route (it checked the token): where the bytes of a ready item, or of a delivery
   * copy of one, are; gone items (and their copies) are 404.
   */
  async publicContent(id: string): Promise<MediaContentTarget> {
    const item = await findMediaItem(this.dataSource.manager, id);
    if (item?.status === 'ready')
      return { object_key: item.objectKey, mime_type: item.mimeType, size: Number(item.size), filename: item.filename };
    const [copy] = await this.dataSource.query<Array<{ object_key: string; mime_type: string; size: string; filename: string }>>(
      `SELECT c.object_key, c.mime_type, c.size, m.filename FROM media_delivery_copies c
         JOIN media_items m ON m.id = c.media_id AND m.status = 'ready'
        WHERE c.id = $1`,
      [id],
    );
    if (!copy) throw problems.notFound('This media item no longer exists.');
    const filename = `${copy.filename.replace(/\.[^.]*$/, '')}.${copy.mime_type.split('/')[1].replace('jpeg', 'jpg')}`;
    return { object_key: copy.object_key, mime_type: copy.mime_type, size: Number(copy.size), filename };
  }
}
