import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSocialSets1764300002000 implements MigrationInterface {
  name = 'CreateSocialSets1764300002000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE social_sets (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    // Names are unique per workspace ignoring case; this index also serves the list of a workspace.
    await db.query(`CREATE UNIQUE INDEX social_sets_workspace_name_key ON social_sets (workspace_id, lower(name))`);
    await db.query(`CREATE UNIQUE INDEX social_sets_one_default_key ON social_sets (workspace_id) WHERE is_default`);
    await db.query(`
      CREATE TABLE social_set_accounts (
        social_set_id uuid NOT NULL REFERENCES social_sets (id) ON DELETE CASCADE,
        -- Disconnecting an account drops it from every set.
        social_account_id uuid NOT NULL REFERENCES social_accounts (id) ON DELETE CASCADE,
        display_order integer NOT NULL CHECK (display_order >= 0),
        default_output_profile text NOT NULL DEFAULT '',
        default_settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(default_settings) = 'object'),
        default_segment_settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(default_segment_settings) = 'object'),
        PRIMARY KEY (social_set_id, social_account_id),
        -- Deferred: E13 renumbers kept members in place, and positions may swap within one statement.
        UNIQUE (social_set_id, display_order) DEFERRABLE INITIALLY DEFERRED
      )`);
    await db.query(`CREATE INDEX social_set_accounts_account_idx ON social_set_accounts (social_account_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE social_set_accounts`);
    await db.query(`DROP TABLE social_sets`);
  }
}
