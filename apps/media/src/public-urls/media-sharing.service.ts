import { Injectable } from '@nestjs/common';
import {
  IssuePublicUrlRequest,
  MediaContentTarget,
  type Principal,
  type PublicMediaUrl,
  ResolvedMediaList,
  ResolveMediaRequest,
} from '@social/contracts';
import { AccessControl, isUuid, problems } from '@social/platform';
import { DataSource } from 'typeorm';
import { toResolvedMedia } from '../analysis/resolved-media.js';
import { findMediaItem, MEDIA_ITEM_COLUMNS, type MediaItemRow } from '../library/media-item.row.js';
import { PublicUrls } from './public-urls.js';

const NO_SUCH_ITEM = 'No such media item.';

/** What other services (and the gateway's public route) learn of media items: resolved facts, public URLs, public bytes. */
@Injectable()
export class MediaSharingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly publicUrls: PublicUrls,
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

  /** A public URL of a ready item of the workspace (posters included: a network may fetch a video's thumbnail). */
  async issuePublicUrl(principal: Principal | null, input: IssuePublicUrlRequest): Promise<PublicMediaUrl> {
    if (principal) await this.access.requireWorkspace(principal, input.workspace_id.toLowerCase(), 'viewer', 'body');
    const item = await findMediaItem(this.dataSource.manager, input.media_id.toLowerCase());
    if (!item || item.workspaceId !== input.workspace_id.toLowerCase()) throw problems.notFound(NO_SUCH_ITEM);
    if (item.status !== 'ready') throw problems.conflict('media_not_ready', 'The upload of this item has not been completed yet.');
    return this.publicUrls.issue(item.id);
  }

  /** Internal, for the gateway's public route (it checked the token): where a ready item's bytes are; gone items are 404. */
  async publicContent(mediaId: string): Promise<MediaContentTarget> {
    const item = await findMediaItem(this.dataSource.manager, mediaId);
    if (!item || item.status !== 'ready') throw problems.notFound('This media item no longer exists.');
    return { object_key: item.objectKey, mime_type: item.mimeType, size: Number(item.size), filename: item.filename };
  }
}
