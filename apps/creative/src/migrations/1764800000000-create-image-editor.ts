import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateImageEditor1764800000000 implements MigrationInterface {
  name = 'CreateImageEditor1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE image_designs (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        name text NOT NULL,
        document jsonb NOT NULL,
        head_revision_id uuid NOT NULL,
        -- The last revision number handed out (revisions are numbered per design under the row lock).
        last_revision integer NOT NULL,
        preview_media_id text NOT NULL DEFAULT '',
        created_by uuid NOT NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    // The list: a workspace's designs, most recently updated first.
    await db.query(`CREATE INDEX image_designs_workspace_updated ON image_designs (workspace_id, updated_at DESC, id DESC)`);
    await db.query(`
      CREATE TABLE image_design_revisions (
        id uuid PRIMARY KEY,
        design_id uuid NOT NULL REFERENCES image_designs (id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL,
        revision integer NOT NULL,
        kind text NOT NULL CHECK (kind IN ('autosave', 'checkpoint', 'restore')),
        name text NOT NULL DEFAULT '',
        document jsonb NOT NULL,
        cover_preview_media_id text NOT NULL DEFAULT '',
        actor_user_id uuid NOT NULL,
        actor_name text NOT NULL DEFAULT '',
        created_at timestamptz(3) NOT NULL,
        -- Autosaves only: after it the revision is gone (checkpoints and restores: NULL, never).
        expires_at timestamptz(3),
        UNIQUE (design_id, revision)
      )`);
    await db.query(`CREATE INDEX image_design_revisions_workspace ON image_design_revisions (workspace_id)`);
    await db.query(`
      CREATE TABLE image_templates (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        name text NOT NULL,
        category text NOT NULL,
        preset_key text NOT NULL DEFAULT '',
        document jsonb NOT NULL,
        created_by uuid NOT NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE INDEX image_templates_workspace_created ON image_templates (workspace_id, created_at DESC, id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE image_templates`);
    await db.query(`DROP TABLE image_design_revisions`);
    await db.query(`DROP TABLE image_designs`);
  }
}
