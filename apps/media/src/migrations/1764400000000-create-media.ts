import { IDEMPOTENCY_TABLE_SQL } from '@social/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateMedia1764400000000 implements MigrationInterface {
  name = 'CreateMedia1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE media_items (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        filename text NOT NULL,
        -- What E17 declared; the real type, hash and size are checked at completion.
        declared_mime_type text NOT NULL DEFAULT '',
        declared_sha256 text NOT NULL DEFAULT '',
        size bigint NOT NULL CHECK (size > 0),
        status text NOT NULL CHECK (status IN ('pending', 'ready')),
        mime_type text NOT NULL DEFAULT '',
        sha256 text NOT NULL DEFAULT '',
        width integer NOT NULL DEFAULT 0,
        height integer NOT NULL DEFAULT 0,
        duration_ms bigint NOT NULL DEFAULT 0,
        object_key text NOT NULL,
        project_asset_id uuid,
        created_by uuid NOT NULL,
        created_at timestamptz(3) NOT NULL,
        -- The upload session's end (pending items only matter until then).
        expires_at timestamptz(3) NOT NULL,
        completed_at timestamptz(3)
      )`);
    // The library: newest first per workspace, one index range scan per page.
    await db.query(`CREATE INDEX media_items_library_idx ON media_items (workspace_id, created_at DESC, id DESC) WHERE status = 'ready'`);
    // One ready copy of the same bytes per workspace: racing completions of one file cannot both keep theirs.
    await db.query(`CREATE UNIQUE INDEX media_items_dedupe_idx ON media_items (workspace_id, sha256, size) WHERE status = 'ready'`);
    await db.query(`CREATE INDEX media_items_expiry_idx ON media_items (expires_at) WHERE status = 'pending'`);
    await db.query(`CREATE INDEX media_items_created_by_idx ON media_items (created_by) WHERE status = 'ready'`);
    await db.query(`
      CREATE TABLE media_tags (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        name text NOT NULL,
        created_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX media_tags_name_idx ON media_tags (workspace_id, lower(name))`);
    await db.query(`
      CREATE TABLE media_item_tags (
        media_id uuid NOT NULL REFERENCES media_items (id) ON DELETE CASCADE,
        tag_id uuid NOT NULL REFERENCES media_tags (id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL,
        PRIMARY KEY (media_id, tag_id)
      )`);
    await db.query(`CREATE INDEX media_item_tags_tag_idx ON media_item_tags (tag_id, media_id)`);
    await db.query(IDEMPOTENCY_TABLE_SQL);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE media_item_tags, media_tags, media_items, idempotency_keys`);
  }
}
