import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Media in posts (issue 21). What publishing knows of the library items its publications attach (docs/decisions.md
 * "PublicationMedia"): filled from media's resolve answer when media are attached,
 * refreshed by media's `durable.media.item.analysed` events. Never read by anyone else.
 */
export class CreateMediaFacts1764300012200 implements MigrationInterface {
  name = 'CreateMediaFacts1764300012200';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE media_facts (
        media_id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        status text NOT NULL,
        filename text NOT NULL DEFAULT '',
        mime_type text NOT NULL DEFAULT '',
        size bigint NOT NULL DEFAULT 0,
        sha256 text NOT NULL DEFAULT '',
        width integer NOT NULL DEFAULT 0,
        height integer NOT NULL DEFAULT 0,
        duration_ms bigint NOT NULL DEFAULT 0,
        frame_rate double precision NOT NULL DEFAULT 0,
        analysis_status text NOT NULL DEFAULT 'pending',
        analysis_error text NOT NULL DEFAULT '',
        poster_media_id text NOT NULL DEFAULT '',
        thumbnail_timestamp_ms bigint NOT NULL DEFAULT 0,
        object_key text NOT NULL DEFAULT '',
        public_url_ready boolean NOT NULL DEFAULT false,
        public_url_status integer NOT NULL DEFAULT 0,
        public_url_checked_at text NOT NULL DEFAULT '',
        public_url_error text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX media_facts_workspace_idx ON media_facts (workspace_id)`);
    // Each account's overrides, by publication segment id (docs/decisions.md "Renditions inherit"): kept here, not only on the
    // rendition's parts, because a network without threads renders every segment into one part.
    await db.query(
      `ALTER TABLE renditions ADD COLUMN segment_overrides jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(segment_overrides) = 'object')`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE renditions DROP COLUMN segment_overrides`);
    await db.query(`DROP TABLE media_facts`);
  }
}
