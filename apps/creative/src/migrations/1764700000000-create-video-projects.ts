import { OUTBOX_TABLE_SQL } from '@social/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Video projects with their revisions, project assets, organization theme settings, and the outbox (asset deletions reach media). */
export class CreateVideoProjects1764700000000 implements MigrationInterface {
  name = 'CreateVideoProjects1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE video_projects (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        name text NOT NULL,
        -- The head revision's document (also kept in video_project_revisions).
        document jsonb NOT NULL,
        head_revision integer NOT NULL CHECK (head_revision > 0),
        sync_status text NOT NULL CHECK (sync_status IN ('pending', 'synced', 'attention')),
        attention_reason text NOT NULL DEFAULT '',
        preview_object_key text NOT NULL DEFAULT '',
        created_by uuid NOT NULL,
        updated_by uuid NOT NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        trashed_at timestamptz(3),
        retention_expires_at timestamptz(3),
        CHECK ((trashed_at IS NULL) = (retention_expires_at IS NULL))
      )`);
    // Each list (active, trash) of a workspace: newest first, one index range scan per page.
    await db.query(
      `CREATE INDEX video_projects_list_idx ON video_projects (workspace_id, (trashed_at IS NOT NULL), created_at DESC, id DESC)`,
    );
    await db.query(`CREATE INDEX video_projects_retention_idx ON video_projects (retention_expires_at) WHERE trashed_at IS NOT NULL`);
    await db.query(`CREATE INDEX video_projects_created_by_idx ON video_projects (created_by)`);
    await db.query(`
      CREATE TABLE video_project_revisions (
        project_id uuid NOT NULL REFERENCES video_projects (id) ON DELETE CASCADE,
        revision integer NOT NULL,
        workspace_id uuid NOT NULL,
        name text NOT NULL,
        document jsonb NOT NULL,
        created_by uuid NOT NULL,
        created_at timestamptz(3) NOT NULL,
        PRIMARY KEY (project_id, revision)
      )`);
    await db.query(`
      CREATE TABLE project_assets (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        project_id uuid NOT NULL REFERENCES video_projects (id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('pending', 'ready', 'failed')),
        attention_reason text NOT NULL DEFAULT '',
        media_id uuid,
        mime_type text NOT NULL,
        original_filename text NOT NULL,
        preparation jsonb NOT NULL DEFAULT '{}',
        sha256 text NOT NULL DEFAULT '',
        size bigint NOT NULL CHECK (size > 0),
        stable_media_id text NOT NULL DEFAULT '',
        device_id text NOT NULL DEFAULT '',
        uploaded_by uuid NOT NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE INDEX project_assets_project_idx ON project_assets (project_id, created_at, id)`);
    await db.query(`
      CREATE TABLE organization_theme_settings (
        organization_id uuid PRIMARY KEY,
        theme_id text NOT NULL,
        theme_kind text NOT NULL,
        theme_version integer NOT NULL,
        assignments_locked boolean NOT NULL,
        updated_by uuid NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await db.query(OUTBOX_TABLE_SQL);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE project_assets, video_project_revisions, video_projects, organization_theme_settings, outbox_events`);
  }
}
