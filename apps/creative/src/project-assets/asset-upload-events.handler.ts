import { Injectable } from '@nestjs/common';
import type { ProjectAssetCompletedEvent, ProjectAssetFailedEvent } from '@social/contracts';
import { changedRows, DurableEventHandler, isUuid } from '@social/platform';
import { DataSource } from 'typeorm';
import { refreshSyncStatus } from '../video-projects/video-project.row.js';

/**
 * `durable.media.project-asset.completed`: the asset becomes ready with its media item, and its
 * project's sync status follows (a failed one too: its bytes were sent again and kept). Idempotent:
 * a ready asset keeps its item, so a redelivery changes nothing; an asset deleted meanwhile is
 * simply not found (media drops the item on the deletion event).
 */
@Injectable()
export class AssetUploadCompletedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    const event = payload as Partial<ProjectAssetCompletedEvent> | null;
    if (!isUuid(event?.project_asset_id) || !isUuid(event?.workspace_id) || !isUuid(event?.media_id)) return;
    await this.dataSource.transaction(async (db) => {
      const updated = await changedRows<{ project_id: string }>(
        db,
        `UPDATE project_assets SET status = 'ready', attention_reason = '', media_id = $3, sha256 = $4, size = $5,
                mime_type = coalesce(nullif($6, ''), mime_type),
                updated_at = now()
          WHERE id = $1 AND workspace_id = $2 AND status <> 'ready' RETURNING project_id`,
        [
          event.project_asset_id,
          event.workspace_id,
          event.media_id,
          String(event.sha256 ?? ''),
          Number(event.size) || 1,
          String(event.mime_type ?? ''),
        ],
      );
      for (const row of updated) await refreshSyncStatus(db, row.project_id);
    });
  }
}

/**
 * `durable.media.project-asset.failed`: a pending asset becomes failed with the reason (the first reason stays; a ready
 * one stays ready).
 */
@Injectable()
export class AssetUploadFailedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    const event = payload as Partial<ProjectAssetFailedEvent> | null;
    if (!isUuid(event?.project_asset_id) || !isUuid(event?.workspace_id)) return;
    await this.dataSource.transaction(async (db) => {
      const updated = await changedRows<{ project_id: string }>(
        db,
        `UPDATE project_assets SET status = 'failed', attention_reason = $3, updated_at = now()
          WHERE id = $1 AND workspace_id = $2 AND status = 'pending' RETURNING project_id`,
        [event.project_asset_id, event.workspace_id, String(event.reason || 'upload_failed').slice(0, 200)],
      );
      for (const row of updated) await refreshSyncStatus(db, row.project_id);
    });
  }
}
