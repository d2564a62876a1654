import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOAuthStates1764300001000 implements MigrationInterface {
  name = 'CreateOAuthStates1764300001000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE oauth_states (
        id uuid PRIMARY KEY,
        -- SHA-256 (hex) of the state handed to the client; the state itself is never stored.
        state_hash text NOT NULL UNIQUE CHECK (state_hash ~ '^[0-9a-f]{64}$'),
        user_id uuid NOT NULL,
        workspace_id uuid NOT NULL,
        platform text NOT NULL,
        -- Origin of the server for networks with instances (mastodon), else "".
        instance_url text NOT NULL DEFAULT '',
        redirect_uri text NOT NULL,
        -- SecretBox envelope of the PKCE verifier (context oauth_states:<id>); "" for networks without PKCE.
        sealed_code_verifier text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        -- Set by the first callback that presents the state, whatever happens next: a state is used once.
        used_at timestamptz,
        CHECK (expires_at > created_at)
      )`);
    await db.query(`CREATE INDEX oauth_states_expires_at_idx ON oauth_states (expires_at)`);
    await db.query(`CREATE INDEX oauth_states_workspace_id_idx ON oauth_states (workspace_id)`);
    // The server a mastodon account lives on: its API calls go there.
    await db.query(`ALTER TABLE social_accounts ADD COLUMN instance_url text NOT NULL DEFAULT ''`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE social_accounts DROP COLUMN instance_url`);
    await db.query(`DROP TABLE oauth_states`);
  }
}
