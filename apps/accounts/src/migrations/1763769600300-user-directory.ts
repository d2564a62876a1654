import { MigrationInterface, QueryRunner } from 'typeorm';

/** E9: last activity per user, and indexes for the directory's default and text sorts. */
export class UserDirectory1763769600300 implements MigrationInterface {
  name = 'UserDirectory1763769600300';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users ADD COLUMN last_active_at timestamptz`);
    await db.query(`UPDATE users u SET last_active_at = s.at FROM (SELECT user_id, max(created_at) AS at FROM sessions GROUP BY user_id) s
      WHERE s.user_id = u.id`);
    await db.query(`CREATE INDEX users_created_idx ON users (created_at, id)`);
    await db.query(`CREATE INDEX users_display_name_idx ON users (lower(display_name), id)`);
    await db.query(`CREATE INDEX users_last_active_idx ON users (last_active_at, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX users_last_active_idx, users_display_name_idx, users_created_idx`);
    await db.query(`ALTER TABLE users DROP COLUMN last_active_at`);
  }
}
