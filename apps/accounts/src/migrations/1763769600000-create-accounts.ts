import { RATE_LIMIT_TABLE_SQL } from '@social/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAccounts1763769600000 implements MigrationInterface {
  name = 'CreateAccounts1763769600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        email_verified boolean NOT NULL DEFAULT false,
        password_hash text,
        display_name text NOT NULL,
        username text,
        avatar_url text NOT NULL DEFAULT '',
        composer_experience text NOT NULL DEFAULT 'specialized',
        is_admin boolean NOT NULL DEFAULT false,
        public_profile_enabled boolean NOT NULL DEFAULT false,
        public_profile_visible_fields text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
    await db.query(`CREATE UNIQUE INDEX users_username_key ON users (lower(username)) WHERE username IS NOT NULL`);
    await db.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        revoke_reason text
      )`);
    await db.query(`CREATE INDEX sessions_user_idx ON sessions (user_id)`);
    await db.query(`CREATE INDEX sessions_revoked_idx ON sessions (revoked_at) WHERE revoked_at IS NOT NULL`);
    await db.query(`
      CREATE TABLE refresh_tokens (
        token_hash text PRIMARY KEY,
        session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await db.query(`CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id)`);
    await db.query(RATE_LIMIT_TABLE_SQL);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE rate_limit_counters, refresh_tokens, sessions, users`);
  }
}
