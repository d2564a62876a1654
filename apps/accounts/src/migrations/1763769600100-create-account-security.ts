import { MigrationInterface, QueryRunner } from 'typeorm';

/** Re-authentication grants, passkeys and their registration challenges, email changes. */
export class CreateAccountSecurity1763769600100 implements MigrationInterface {
  name = 'CreateAccountSecurity1763769600100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE reauth_grants (
        id uuid PRIMARY KEY,
        grant_hash text NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        session_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await db.query(`CREATE INDEX reauth_grants_expires_idx ON reauth_grants (expires_at)`);
    await db.query(`
      CREATE TABLE passkey_challenges (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        session_id uuid NOT NULL,
        challenge_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await db.query(`CREATE INDEX passkey_challenges_expires_idx ON passkey_challenges (expires_at)`);
    await db.query(`
      CREATE TABLE passkeys (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        credential_id text NOT NULL UNIQUE,
        public_key bytea NOT NULL,
        counter bigint NOT NULL,
        transports text[] NOT NULL DEFAULT '{}',
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz
      )`);
    await db.query(`CREATE INDEX passkeys_user_idx ON passkeys (user_id)`);
    await db.query(`
      CREATE TABLE email_changes (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        new_email text NOT NULL,
        code_hash text NOT NULL,
        failed_attempts integer NOT NULL DEFAULT 0,
        status text NOT NULL,
        sent_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        resolved_at timestamptz
      )`);
    // At most one pending change per user: a new request supersedes the old one.
    await db.query(`CREATE UNIQUE INDEX email_changes_pending_key ON email_changes (user_id) WHERE status = 'pending'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE email_changes, passkeys, passkey_challenges, reauth_grants`);
  }
}
