import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Swept upload sessions stay a day as `expired` rows (their objects are gone), so completing one
 * answers 410 rather than 404 (docs/decisions.md "410 after"); then they are purged.
 */
export class ExpiredMediaSessions1764600000000 implements MigrationInterface {
  name = 'ExpiredMediaSessions1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE media_items DROP CONSTRAINT media_items_status_check`);
    await db.query(
      `ALTER TABLE media_items ADD CONSTRAINT media_items_status_check CHECK (status IN ('pending', 'ready', 'merged', 'expired'))`,
    );
    await db.query(`CREATE INDEX media_items_expired_idx ON media_items (expires_at) WHERE status = 'expired'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM media_items WHERE status = 'expired'`);
    await db.query(`ALTER TABLE media_items DROP CONSTRAINT media_items_status_check`);
    await db.query(`ALTER TABLE media_items ADD CONSTRAINT media_items_status_check CHECK (status IN ('pending', 'ready', 'merged'))`);
  }
}
