import { Inject, Injectable } from '@nestjs/common';
import { changedCount, type MediaStorage, PeriodicSweep, SERVICE_CONFIG, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { MediaConfig } from '../config.js';
import { MEDIA_STORAGE } from '../storage/storage.module.js';
import type { ExpiringSessionRow } from '../upload-sessions/upload-session.row.js';
import { announceAssetFailed } from '../upload-sessions/upload-sessions.service.js';

const SWEEP_BATCH = 100;
/** How long a swept session's row stays `expired` (completing it answers 410, not 404). */
export const EXPIRED_SESSION_GRACE = '24 hours';

/**
 * Upload sessions never completed lose whatever bytes reached storage an hour
 * after they opened; their rows stay a day as `expired` (so completion answers
 * 410), then go. Each replica sweeps on its own timer; a batch is claimed with
 * FOR UPDATE SKIP LOCKED, so replicas never work on the same session, and its
 * rows are marked only after their objects are deleted.
 */
@Injectable()
export class SessionSweeper extends PeriodicSweep {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
    @Inject(SERVICE_CONFIG) config: MediaConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    super({ intervalMs: config.MEDIA_SWEEP_INTERVAL_MS, logger, failure: 'upload session sweep failed' });
  }

  /**
   * Expires sessions past their hour (objects deleted) and purges those a
   * day past it, a batch per transaction; answers how many were expired.
   */
  async sweep(): Promise<number> {
    let removed = 0;
    for (;;) {
      const count = await this.dataSource.transaction(async (db) => {
        const expired = await db.query<ExpiringSessionRow[]>(
          `SELECT id, object_key, workspace_id, project_asset_id FROM media_items WHERE status = 'pending' AND expires_at < now()
            ORDER BY expires_at LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED`,
        );
        for (const session of expired) await this.storage.delete(session.object_key);
        if (expired.length > 0) {
          const ids = expired.map((session) => session.id);
          await db.query(`DELETE FROM media_item_tags WHERE media_id = ANY($1::uuid[])`, [ids]);
          await db.query(`UPDATE media_items SET status = 'expired', object_key = '' WHERE id = ANY($1::uuid[])`, [ids]);
          // The project assets these uploads were for have failed (their projects show it).
          for (const session of expired) {
            if (session.project_asset_id) {
              await announceAssetFailed(
                db,
                { id: session.id, workspaceId: session.workspace_id, projectAssetId: session.project_asset_id },
                'upload_expired',
              );
            }
          }
        }
        return expired.length;
      });
      removed += count;
      if (count < SWEEP_BATCH) break;
    }
    let purged = 0;
    for (;;) {
      const count = await changedCount(
        this.dataSource,
        `DELETE FROM media_items WHERE id IN (SELECT id FROM media_items WHERE status = 'expired'
           AND expires_at < now() - interval '${EXPIRED_SESSION_GRACE}'
                                              LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)`,
      );
      purged += count;
      if (count < SWEEP_BATCH) break;
    }
    if (removed > 0 || purged > 0) this.logger.info({ removed, purged }, 'expired upload sessions swept');
    return removed;
  }
}
