import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateVoiceProfiles1764300003000 implements MigrationInterface {
  name = 'CreateVoiceProfiles1764300003000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE voice_profiles (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
        definition jsonb NOT NULL CHECK (jsonb_typeof(definition) = 'object'),
        is_default boolean NOT NULL DEFAULT false,
        revision integer NOT NULL CHECK (revision >= 1),
        schema_version integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        -- Target of the assignments' (profile, workspace) key: an assignment cannot name another workspace's profile.
        UNIQUE (id, workspace_id)
      )`);
    await db.query(`CREATE UNIQUE INDEX voice_profiles_workspace_name_key ON voice_profiles (workspace_id, lower(name))`);
    await db.query(`CREATE UNIQUE INDEX voice_profiles_one_default_key ON voice_profiles (workspace_id) WHERE is_default`);
    // Same for accounts: an assignment's account and profile belong to the workspace it records.
    await db.query(`CREATE UNIQUE INDEX social_accounts_id_workspace_key ON social_accounts (id, workspace_id)`);
    await db.query(`
      CREATE TABLE voice_profile_assignments (
        -- The primary key: an account has at most one voice profile.
        social_account_id uuid PRIMARY KEY,
        voice_profile_id uuid NOT NULL,
        workspace_id uuid NOT NULL,
        FOREIGN KEY (social_account_id, workspace_id) REFERENCES social_accounts (id, workspace_id) ON DELETE CASCADE,
        FOREIGN KEY (voice_profile_id, workspace_id) REFERENCES voice_profiles (id, workspace_id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX voice_profile_assignments_profile_idx ON voice_profile_assignments (voice_profile_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE voice_profile_assignments`);
    await db.query(`DROP INDEX social_accounts_id_workspace_key`);
    await db.query(`DROP TABLE voice_profiles`);
  }
}
