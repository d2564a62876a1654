import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSocialAccounts1764300000000 implements MigrationInterface {
  name = 'CreateSocialAccounts1764300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE social_accounts (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        platform text NOT NULL,
        external_id text NOT NULL,
        username text NOT NULL,
        display_name text NOT NULL DEFAULT '',
        avatar_url text NOT NULL DEFAULT '',
        status text NOT NULL,
        -- SecretBox envelope of the network's grant (tokens, expiry); "" for the sandbox.
        credentials text NOT NULL DEFAULT '',
        connected_by uuid NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        -- One row per network identity per workspace: connecting it again refreshes it.
        UNIQUE (workspace_id, platform, external_id)
      )`);
    await db.query(`CREATE INDEX social_accounts_connected_by_idx ON social_accounts (connected_by)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE social_accounts`);
  }
}
