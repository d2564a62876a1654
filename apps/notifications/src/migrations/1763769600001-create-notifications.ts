import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateNotifications1763769600001 implements MigrationInterface {
  name = 'CreateNotifications1763769600001';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE preferences (
        user_id uuid PRIMARY KEY,
        digest_time text NOT NULL,
        digest_timezone text NOT NULL,
        topics jsonb NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL
      )`);
    await db.query(`
      CREATE TABLE mutes (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        workspace_id uuid,
        workspace_name text NOT NULL DEFAULT '',
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        CHECK (ends_at > starts_at)
      )`);
    await db.query(`CREATE INDEX mutes_user_idx ON mutes (user_id, ends_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE mutes, preferences`);
  }
}
