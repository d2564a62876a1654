import { IDEMPOTENCY_TABLE_SQL } from '@social/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

const STATUSES = `('draft', 'ready', 'scheduled', 'publishing', 'published', 'failed')`;
const CONTENT_PROFILES = `('short_text', 'thread', 'link_share', 'image_post', 'carousel', 'story', 'short_video', 'long_video')`;
const DELIVERY_STATES = `('queued', 'submitted', 'processing', 'provider_scheduled', 'live', 'rejected', 'ambiguous', 'manual_resolution')`;
const RECOVERY_ACTIONS = `('none', 'retry', 'reconcile', 'manual_resolution')`;

/** Columns every delivery target shares (renditions and their segments): where it landed, or why it failed. */
const OUTCOME_COLUMNS = `
  external_id text NOT NULL DEFAULT '',
  external_url text NOT NULL DEFAULT '',
  error_action text NOT NULL DEFAULT '',
  error_code text NOT NULL DEFAULT '',
  error_kind text NOT NULL DEFAULT '',
  error_message text NOT NULL DEFAULT '',
  error_http_status integer NOT NULL DEFAULT 0,
  error_retryable boolean NOT NULL DEFAULT false,
  error_retry_at timestamptz`;

export class CreatePublications1764300004000 implements MigrationInterface {
  name = 'CreatePublications1764300004000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE publications (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ${STATUSES}),
        revision integer NOT NULL DEFAULT 1 CHECK (revision >= 1),
        content_profile text NOT NULL CHECK (content_profile IN ${CONTENT_PROFILES}),
        title text NOT NULL CHECK (char_length(title) <= 300),
        source_text text NOT NULL CHECK (char_length(source_text) <= 100000),
        source_url text NOT NULL DEFAULT '',
        audience text NOT NULL DEFAULT '',
        goal text NOT NULL DEFAULT '',
        intent text NOT NULL DEFAULT '',
        creation_preset text NOT NULL DEFAULT '',
        -- The set it was scheduled to; a deleted set leaves its renditions (one per account) in place.
        social_set_id uuid REFERENCES social_sets (id) ON DELETE SET NULL,
        metadata jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
        -- PublicationMedia items as given, until the media service owns them.
        media jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(media) = 'array'),
        random_delay_inherited boolean NOT NULL DEFAULT true,
        random_delay_minutes integer NOT NULL DEFAULT 0 CHECK (random_delay_minutes >= 0),
        -- RepostOverride; members left out read as "inherit" with zero thresholds (toRepostOverride).
        repost_override jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(repost_override) = 'object'),
        scheduled_at timestamptz,
        actual_run_at timestamptz,
        failure_dismissed_at timestamptz,
        created_by uuid NOT NULL,
        -- Milliseconds, as on the wire: a list cursor holds the exact value it resumes after.
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    // The list: one workspace (and maybe one status), newest first, resumed after (created_at, id).
    await db.query(`CREATE INDEX publications_workspace_created_idx ON publications (workspace_id, created_at, id)`);
    await db.query(`CREATE INDEX publications_workspace_status_created_idx ON publications (workspace_id, status, created_at, id)`);
    await db.query(`CREATE INDEX publications_social_set_idx ON publications (social_set_id) WHERE social_set_id IS NOT NULL`);

    await db.query(`
      CREATE TABLE publication_segments (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL REFERENCES publications (id) ON DELETE CASCADE,
        position integer NOT NULL CHECK (position >= 0),
        title text NOT NULL DEFAULT '',
        body text NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        url text NOT NULL DEFAULT '',
        media jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(media) = 'array'),
        settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object'),
        UNIQUE (publication_id, position)
      )`);

    await db.query(`
      CREATE TABLE renditions (
        id uuid PRIMARY KEY,
        publication_id uuid NOT NULL REFERENCES publications (id) ON DELETE CASCADE,
        -- A disconnected account takes its renditions with it.
        social_account_id uuid NOT NULL REFERENCES social_accounts (id) ON DELETE CASCADE,
        platform text NOT NULL,
        target_key text NOT NULL,
        profile text NOT NULL DEFAULT '',
        output_profile text NOT NULL DEFAULT '',
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ${STATUSES}),
        title text NOT NULL DEFAULT '',
        body text NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        format_locked boolean NOT NULL DEFAULT false,
        schedule_override text NOT NULL DEFAULT '',
        media jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(media) = 'array'),
        settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object'),
        ${OUTCOME_COLUMNS},
        -- Delivery: one per rendition, so its columns live here.
        delivery_state text NOT NULL DEFAULT 'queued' CHECK (delivery_state IN ${DELIVERY_STATES}),
        delivery_recovery_action text NOT NULL DEFAULT 'none' CHECK (delivery_recovery_action IN ${RECOVERY_ACTIONS}),
        delivery_target_key text NOT NULL DEFAULT '',
        delivery_current_attempt_id uuid,
        delivery_current_attempt_number integer NOT NULL DEFAULT 0 CHECK (delivery_current_attempt_number >= 0),
        delivery_current_attempt_created_at timestamptz,
        delivery_external_id text NOT NULL DEFAULT '',
        delivery_external_url text NOT NULL DEFAULT '',
        delivery_error_code text NOT NULL DEFAULT '',
        delivery_error_kind text NOT NULL DEFAULT '',
        delivery_error_http_status integer NOT NULL DEFAULT 0,
        delivery_terminal_reason text NOT NULL DEFAULT '',
        delivery_last_reconciled_at timestamptz,
        delivery_next_reconciliation_at timestamptz,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        -- Interface: one rendition per target account and platform.
        UNIQUE (publication_id, social_account_id, platform)
      )`);
    await db.query(`CREATE INDEX renditions_social_account_idx ON renditions (social_account_id)`);

    await db.query(`
      CREATE TABLE rendition_segments (
        id uuid PRIMARY KEY,
        rendition_id uuid NOT NULL REFERENCES renditions (id) ON DELETE CASCADE,
        -- Segments are replaced wholesale by an edit: the rendition keeps its own copy.
        publication_segment_id uuid REFERENCES publication_segments (id) ON DELETE SET NULL,
        position integer NOT NULL CHECK (position >= 0),
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ${STATUSES}),
        title text NOT NULL DEFAULT '',
        body text NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        url text NOT NULL DEFAULT '',
        title_override text NOT NULL DEFAULT '',
        body_override text NOT NULL DEFAULT '',
        description_override text NOT NULL DEFAULT '',
        url_override text NOT NULL DEFAULT '',
        media_inherited boolean NOT NULL DEFAULT true,
        media jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(media) = 'array'),
        settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object'),
        ${OUTCOME_COLUMNS},
        UNIQUE (rendition_id, position)
      )`);
    await db.query(`CREATE INDEX rendition_segments_publication_segment_idx ON rendition_segments (publication_segment_id)`);

    // E15's Idempotency-Key (docs/decisions.md).
    await db.query(IDEMPOTENCY_TABLE_SQL);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE idempotency_keys`);
    await db.query(`DROP TABLE rendition_segments`);
    await db.query(`DROP TABLE renditions`);
    await db.query(`DROP TABLE publication_segments`);
    await db.query(`DROP TABLE publications`);
  }
}
