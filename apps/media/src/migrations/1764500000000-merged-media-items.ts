import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A completion whose bytes a ready item already holds keeps its session as a tombstone (`merged`,
 * `merged_into` that item), so repeating the completion answers the same item (docs/decisions.md). The
 * tombstone goes with the item it points at.
 */
export class MergedMediaItems1764500000000 implements MigrationInterface {
  name = 'MergedMediaItems1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE media_items DROP CONSTRAINT media_items_status_check`);
    await db.query(`ALTER TABLE media_items ADD CONSTRAINT media_items_status_check CHECK (status IN ('pending', 'ready', 'merged'))`);
    await db.query(`ALTER TABLE media_items ADD COLUMN merged_into uuid REFERENCES media_items (id) ON DELETE CASCADE`);
    await db.query(
      `ALTER TABLE media_items ADD CONSTRAINT media_items_merged_check CHECK ((status = 'merged') = (merged_into IS NOT NULL))`,
    );
    await db.query(`CREATE INDEX media_items_merged_into_idx ON media_items (merged_into) WHERE merged_into IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM media_items WHERE status = 'merged'`);
    await db.query(`ALTER TABLE media_items DROP COLUMN merged_into`);
    await db.query(`ALTER TABLE media_items DROP CONSTRAINT media_items_status_check`);
    await db.query(`ALTER TABLE media_items ADD CONSTRAINT media_items_status_check CHECK (status IN ('pending', 'ready'))`);
  }
}
