import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Analysis of media items (a video's duration, frame rate, dimensions and poster frame) and the
 * state of their public copies. A video's analysis runs after completion, claimed by a leased
 * worker (`analysis_lease`), so one left by a crashed replica is taken up again. A poster frame is
 * an item of its own (`poster_of` its video): never in the library, never a dedupe target, gone
 * with its video.
 */
export class MediaAnalysis1764800000000 implements MigrationInterface {
  name = 'MediaAnalysis1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE media_items
        ADD COLUMN analysis_status text NOT NULL DEFAULT 'pending' CHECK (analysis_status IN ('pending', 'ready', 'failed')),
        ADD COLUMN analysis_error text NOT NULL DEFAULT '',
        ADD COLUMN frame_rate double precision NOT NULL DEFAULT 0,
        ADD COLUMN thumbnail_timestamp_ms bigint NOT NULL DEFAULT 0,
        ADD COLUMN poster_media_id uuid,
        ADD COLUMN poster_of uuid REFERENCES media_items (id) ON DELETE CASCADE,
        -- Work for the analysis worker: a video to probe (analysis_status pending) or a public URL to self-check.
        ADD COLUMN public_check_due boolean NOT NULL DEFAULT false,
        ADD COLUMN analysis_attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN analysis_next_at timestamptz(3),
        ADD COLUMN analysis_lease text,
        ADD COLUMN analysis_lease_expires_at timestamptz(3),
        ADD COLUMN public_url_status integer NOT NULL DEFAULT 0,
        ADD COLUMN public_url_checked_at timestamptz(3),
        ADD COLUMN public_url_error text NOT NULL DEFAULT ''`);
    // Items completed before analysis existed: videos are probed now, everything else is analysed.
    await db.query(`UPDATE media_items SET analysis_status = 'ready' WHERE status <> 'ready' OR mime_type NOT LIKE 'video/%'`);
    await db.query(`UPDATE media_items SET analysis_next_at = now() WHERE status = 'ready' AND analysis_status = 'pending'`);
    await db.query(
      `CREATE INDEX media_items_analysis_due_idx ON media_items (analysis_next_at)
       WHERE status = 'ready' AND (analysis_status = 'pending' OR public_check_due)`,
    );
    await db.query(`CREATE INDEX media_items_poster_of_idx ON media_items (poster_of) WHERE poster_of IS NOT NULL`);
    // Posters never deduplicate against the library (nor it against them).
    await db.query(`DROP INDEX media_items_dedupe_idx`);
    await db.query(
      `CREATE UNIQUE INDEX media_items_dedupe_idx ON media_items (workspace_id, sha256, size)
       WHERE status = 'ready' AND project_asset_id IS NULL AND poster_of IS NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM media_items WHERE poster_of IS NOT NULL`);
    await db.query(`DROP INDEX media_items_dedupe_idx`);
    await db.query(
      `CREATE UNIQUE INDEX media_items_dedupe_idx ON media_items (workspace_id, sha256, size)
       WHERE status = 'ready' AND project_asset_id IS NULL`,
    );
    await db.query(`DROP INDEX media_items_poster_of_idx`);
    await db.query(`DROP INDEX media_items_analysis_due_idx`);
    await db.query(`
      ALTER TABLE media_items
        DROP COLUMN analysis_status, DROP COLUMN analysis_error, DROP COLUMN frame_rate, DROP COLUMN thumbnail_timestamp_ms,
        DROP COLUMN poster_media_id, DROP COLUMN poster_of, DROP COLUMN public_check_due, DROP COLUMN analysis_attempts,
        DROP COLUMN analysis_next_at, DROP COLUMN analysis_lease, DROP COLUMN analysis_lease_expires_at,
        DROP COLUMN public_url_status, DROP COLUMN public_url_checked_at, DROP COLUMN public_url_error`);
  }
}
