import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a rendition went live (issue 15): insights reads the published
 * renditions oldest first (`publishing.providers.published-renditions`), keyset
 * by (published_at, id), across the platform or for one account. Backfilled
 * from the live attempt, else the rendition's last update.
 */
export class AddRenditionPublishedAt1764300010000 implements MigrationInterface {
  name = 'AddRenditionPublishedAt1764300010000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE renditions ADD COLUMN published_at timestamptz(3)`);
    await db.query(`
      UPDATE renditions r SET published_at = COALESCE(
        (SELECT max(a.finished_at) FROM delivery_attempts a WHERE a.rendition_id = r.id AND a.outcome = 'live'), r.updated_at)
       WHERE r.delivery_state = 'live'`);
    await db.query(`CREATE INDEX renditions_published_idx ON renditions (published_at, id) WHERE published_at IS NOT NULL`);
    await db.query(
      `CREATE INDEX renditions_account_published_idx ON renditions (social_account_id, published_at, id) WHERE published_at IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX renditions_account_published_idx`);
    await db.query(`DROP INDEX renditions_published_idx`);
    await db.query(`ALTER TABLE renditions DROP COLUMN published_at`);
  }
}
