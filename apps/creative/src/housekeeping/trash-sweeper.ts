import { Inject, Injectable } from '@nestjs/common';
import { PeriodicSweep, SERVICE_CONFIG, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { CreativeConfig } from '../config.js';
import type { ProjectAssetOwnerRow } from '../project-assets/project-asset.row.js';
import { announceAssetDeleted } from '../project-assets/project-assets.service.js';
import type { VideoProjectRow } from '../video-projects/video-project.row.js';

const SWEEP_BATCH = 100;

/**
 * Purges video projects whose 30 days in the trash are over: their revisions and
 * assets go with them, and media hears of each asset (its bytes go too). Every
 * replica sweeps on its own timer; a batch is claimed with FOR UPDATE SKIP
 * LOCKED, so replicas never purge the same project, and a restore racing the
 * sweep either waits for it (then 404) or wins (the row no longer qualifies).
 */
@Injectable()
export class TrashSweeper extends PeriodicSweep {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) config: CreativeConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    super({ intervalMs: config.CREATIVE_SWEEP_INTERVAL_MS, logger, failure: 'video project trash sweep failed' });
  }

  /** Purges every project past its retention, a batch per transaction; answers how many. */
  async sweep(): Promise<number> {
    let purged = 0;
    for (;;) {
      const count = await this.dataSource.transaction(async (db) => {
        const projects = await db.query<Array<Pick<VideoProjectRow, 'id'>>>(
          `SELECT id FROM video_projects WHERE trashed_at IS NOT NULL AND retention_expires_at < now()
            ORDER BY retention_expires_at LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED`,
        );
        if (projects.length === 0) return 0;
        const ids = projects.map((project) => project.id);
        const assets = await db.query<ProjectAssetOwnerRow[]>(
          `SELECT id, workspace_id FROM project_assets WHERE project_id = ANY($1::uuid[])`,
          [ids],
        );
        for (const asset of assets) await announceAssetDeleted(db, asset.workspace_id, asset.id);
        // Revisions and assets go by cascade.
        await db.query(`DELETE FROM video_projects WHERE id = ANY($1::uuid[])`, [ids]);
        return projects.length;
      });
      purged += count;
      if (count < SWEEP_BATCH) break;
    }
    if (purged > 0) this.logger.info({ purged }, 'trashed video projects purged');
    return purged;
  }
}
