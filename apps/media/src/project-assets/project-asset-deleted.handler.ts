import { Inject, Injectable } from '@nestjs/common';
import type { ProjectAssetDeletedEvent } from '@social/contracts';
import { DurableEventHandler, isUuid, type MediaStorage } from '@social/platform';
import { DataSource } from 'typeorm';
import { MEDIA_STORAGE } from '../storage/storage.module.js';

/**
 * `durable.creative.project-asset.deleted`: the asset (or its purged project) is gone, so are its
 * uploads: each item's object first, then its row. Idempotent: a redelivery finds nothing left;
 * a failing object delete throws, so the event comes back and the row (naming the object) stays.
 */
@Injectable()
export class ProjectAssetDeletedHandler implements DurableEventHandler {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
  ) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    const event = payload as Partial<ProjectAssetDeletedEvent> | null;
    if (!isUuid(event?.project_asset_id) || !isUuid(event?.workspace_id)) return;
    const items = await this.dataSource.query<Array<{ id: string; object_key: string }>>(
      `SELECT id, object_key FROM media_items WHERE project_asset_id = $1 AND workspace_id = $2`,
      [event.project_asset_id.toLowerCase(), event.workspace_id.toLowerCase()],
    );
    for (const item of items) {
      // Its video's poster frame first (the row would go by cascade, the object would not).
      const posters = await this.dataSource.query<Array<{ id: string; object_key: string }>>(
        `SELECT id, object_key FROM media_items WHERE poster_of = $1`,
        [item.id],
      );
      for (const poster of posters) {
        await this.storage.delete(poster.object_key);
        await this.dataSource.query(`DELETE FROM media_items WHERE id = $1`, [poster.id]);
      }
      if (item.object_key) await this.storage.delete(item.object_key);
      await this.dataSource.query(`DELETE FROM media_items WHERE id = $1`, [item.id]);
    }
  }
}
