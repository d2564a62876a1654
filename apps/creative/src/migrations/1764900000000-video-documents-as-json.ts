import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Video project documents are the client's own JSON (issue 22): the service never queries inside
 * them, so they are kept as `json`, the text exactly as written. PostgreSQL then only checks the
 * syntax instead of building jsonb (half the CPU of a 200 KB write, and of reading it back as text).
 */
export class VideoDocumentsAsJson1764900000000 implements MigrationInterface {
  name = 'VideoDocumentsAsJson1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE video_projects ALTER COLUMN document TYPE json USING document::json`);
    await db.query(`ALTER TABLE video_project_revisions ALTER COLUMN document TYPE json USING document::json`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE video_projects ALTER COLUMN document TYPE jsonb USING document::jsonb`);
    await db.query(`ALTER TABLE video_project_revisions ALTER COLUMN document TYPE jsonb USING document::jsonb`);
  }
}
