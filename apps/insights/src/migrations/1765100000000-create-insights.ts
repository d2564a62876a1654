import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Insights keeps what it learned from the networks (through publishing):
 * accounts with their sync outcome, daily follower snapshots, published
 * renditions with their measurements, growth recommendations, and the
 * durable sync jobs that fetch them.
 */
export class CreateInsights1765100000000 implements MigrationInterface {
  name = 'CreateInsights1765100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        platform text NOT NULL DEFAULT '',
        username text NOT NULL DEFAULT '',
        avatar_url text NOT NULL DEFAULT '',
        -- The outcome of the last account metrics sync (docs/decisions.md analytics account status).
        status text NOT NULL DEFAULT 'pending',
        error_code text NOT NULL DEFAULT '',
        error_message text NOT NULL DEFAULT '',
        missing_scopes text[] NOT NULL DEFAULT '{}',
        last_attempted_at timestamptz(3),
        last_success_at timestamptz(3),
        first_success_at timestamptz(3),
        next_sync_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX accounts_workspace_idx ON accounts (workspace_id)`);
    await db.query(`
      CREATE TABLE account_snapshots (
        account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL,
        date date NOT NULL,
        followers bigint NOT NULL,
        following bigint NOT NULL,
        posts bigint NOT NULL,
        collected_at timestamptz(3) NOT NULL,
        PRIMARY KEY (account_id, date)
      )`);
    await db.query(`CREATE INDEX account_snapshots_workspace_idx ON account_snapshots (workspace_id, date)`);
    await db.query(`
      CREATE TABLE renditions (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        publication_id uuid NOT NULL,
        social_account_id uuid NOT NULL,
        platform text NOT NULL,
        title text NOT NULL DEFAULT '',
        excerpt text NOT NULL DEFAULT '',
        content_profile text NOT NULL DEFAULT '',
        external_id text NOT NULL,
        external_url text NOT NULL DEFAULT '',
        published_at timestamptz(3) NOT NULL,
        -- The latest measurement (the history is rendition_metrics), so E24 reads one row per rendition.
        status text NOT NULL DEFAULT 'pending',
        error_code text NOT NULL DEFAULT '',
        error_message text NOT NULL DEFAULT '',
        views bigint NOT NULL DEFAULT 0,
        likes bigint NOT NULL DEFAULT 0,
        comments bigint NOT NULL DEFAULT 0,
        reposts bigint NOT NULL DEFAULT 0,
        engagement bigint GENERATED ALWAYS AS (likes + comments + reposts) STORED,
        collected_at timestamptz(3),
        last_attempted_at timestamptz(3)
      )`);
    await db.query(`CREATE INDEX renditions_workspace_published_idx ON renditions (workspace_id, published_at DESC, id DESC)`);
    await db.query(`CREATE INDEX renditions_account_published_idx ON renditions (social_account_id, published_at DESC)`);
    await db.query(`
      CREATE TABLE rendition_metrics (
        rendition_id uuid NOT NULL REFERENCES renditions (id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL,
        collected_at timestamptz(3) NOT NULL,
        views bigint NOT NULL,
        likes bigint NOT NULL,
        comments bigint NOT NULL,
        reposts bigint NOT NULL,
        PRIMARY KEY (rendition_id, collected_at)
      )`);
    await db.query(`CREATE INDEX rendition_metrics_workspace_idx ON rendition_metrics (workspace_id)`);
    await db.query(`
      CREATE TABLE growth_sync_states (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        social_account_id uuid NOT NULL UNIQUE REFERENCES accounts (id) ON DELETE CASCADE,
        platform text NOT NULL DEFAULT '',
        status text NOT NULL DEFAULT 'idle',
        current_generation_id text NOT NULL DEFAULT '',
        error_code text NOT NULL DEFAULT '',
        error_message text NOT NULL DEFAULT '',
        last_attempted_at timestamptz(3),
        last_success_at timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE INDEX growth_sync_states_workspace_idx ON growth_sync_states (workspace_id)`);
    await db.query(`
      CREATE TABLE growth_items (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        social_account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        platform text NOT NULL,
        generation_id uuid NOT NULL,
        remote_account_id text NOT NULL,
        handle text NOT NULL,
        display_name text NOT NULL,
        avatar_url text NOT NULL,
        bio text NOT NULL,
        profile_url text NOT NULL,
        followers_count bigint NOT NULL,
        following_count bigint NOT NULL,
        mutual_count bigint NOT NULL,
        score double precision NOT NULL,
        signals text[] NOT NULL,
        follow_state text NOT NULL DEFAULT 'idle',
        follow_error_code text NOT NULL DEFAULT '',
        follow_error_message text NOT NULL DEFAULT '',
        dismissed_at timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        last_seen_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        UNIQUE (social_account_id, remote_account_id)
      )`);
    await db.query(`CREATE INDEX growth_items_workspace_idx ON growth_items (workspace_id)`);
    await db.query(`
      CREATE TABLE sync_jobs (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('growth_refresh', 'account_metrics', 'rendition_metrics', 'follow')),
        -- What a pending job is deduplicated on (e.g. growth_refresh:<account>, rendition_metrics:<rendition>:<due time>).
        dedupe_key text NOT NULL,
        account_id uuid,
        rendition_id uuid,
        growth_item_id uuid,
        state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
        run_at timestamptz(3) NOT NULL,
        lease_owner text,
        lease_expires_at timestamptz(3),
        attempts integer NOT NULL DEFAULT 0,
        outcome text NOT NULL DEFAULT '',
        created_at timestamptz(3) NOT NULL,
        finished_at timestamptz(3)
      )`);
    await db.query(`CREATE UNIQUE INDEX sync_jobs_pending_idx ON sync_jobs (dedupe_key) WHERE state = 'queued'`);
    await db.query(`CREATE INDEX sync_jobs_due_idx ON sync_jobs (run_at) WHERE state IN ('queued', 'running')`);
    await db.query(`CREATE INDEX sync_jobs_account_idx ON sync_jobs (account_id) WHERE state IN ('queued', 'running')`);
    await db.query(`CREATE INDEX sync_jobs_workspace_idx ON sync_jobs (workspace_id)`);
    await db.query(`CREATE INDEX sync_jobs_rendition_idx ON sync_jobs (rendition_id, run_at) WHERE state = 'queued'`);
    // The daily planner: one row per day, inserted by the replica that plans it.
    await db.query(`CREATE TABLE planner_runs (day date PRIMARY KEY, planned_at timestamptz(3) NOT NULL, accounts integer NOT NULL)`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'planner_runs',
      'sync_jobs',
      'growth_items',
      'growth_sync_states',
      'rendition_metrics',
      'renditions',
      'account_snapshots',
      'accounts',
    ]) {
      await db.query(`DROP TABLE ${table}`);
    }
  }
}
