import { OUTBOX_TABLE_SQL } from '@social/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Items uploaded for video-project assets (`project_asset_id`) are private to their project: they
 * never deduplicate against the library (nor it against them), and their outcomes leave through
 * the outbox (`durable.media.project-asset.completed` / `.failed`) in the transaction of the change.
 */
export class ProjectAssetMedia1764700000100 implements MigrationInterface {
  name = 'ProjectAssetMedia1764700000100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX media_items_dedupe_idx`);
    await db.query(
      `CREATE UNIQUE INDEX media_items_dedupe_idx ON media_items (workspace_id, sha256, size)
       WHERE status = 'ready' AND project_asset_id IS NULL`,
    );
    // One open or ready upload per project asset: racing sessions for one asset cannot both be opened.
    await db.query(
      `CREATE UNIQUE INDEX media_items_project_asset_idx ON media_items (project_asset_id)
       WHERE project_asset_id IS NOT NULL AND status IN ('pending', 'ready')`,
    );
    await db.query(OUTBOX_TABLE_SQL);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE outbox_events`);
    await db.query(`DROP INDEX media_items_project_asset_idx`);
    await db.query(`DROP INDEX media_items_dedupe_idx`);
    await db.query(`CREATE UNIQUE INDEX media_items_dedupe_idx ON media_items (workspace_id, sha256, size) WHERE status = 'ready'`);
  }
}
