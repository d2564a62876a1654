import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin directory counts each page's users' publications
 * (publishing.usage.for-users): without this, one scan of every publication per user.
 */
export class IndexPublicationsByCreator1764300005000 implements MigrationInterface {
  name = 'IndexPublicationsByCreator1764300005000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX publications_created_by_idx ON publications (created_by)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX publications_created_by_idx`);
  }
}
