import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery (docs/decisions.md "Delivery"): when the scheduler should next look at a
 * rendition and which replica holds it, every attempt kept, and the sandbox
 * network's own store of the posts it accepted.
 */
export class CreateDelivery1764300007000 implements MigrationInterface {
  name = 'CreateDelivery1764300007000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE renditions
        -- When the scheduler next acts on it (send, retry, reconcile); NULL once nothing is left to do.
        ADD COLUMN next_action_at timestamptz,
        -- The replica delivering it and until when; an expired lease is taken over.
        ADD COLUMN lease_owner text NOT NULL DEFAULT '',
        ADD COLUMN lease_expires_at timestamptz,
        -- Attempts since the last schedule, publish-now or retry (at most 5 per round).
        ADD COLUMN round_attempts integer NOT NULL DEFAULT 0 CHECK (round_attempts >= 0),
        -- Reconciliations of the attempt in doubt that could not reach the network.
        ADD COLUMN reconcile_failures integer NOT NULL DEFAULT 0 CHECK (reconcile_failures >= 0)`);
    await db.query(`CREATE INDEX renditions_next_action_idx ON renditions (next_action_at) WHERE next_action_at IS NOT NULL`);
    await db.query(`
      CREATE TABLE delivery_attempts (
        id uuid PRIMARY KEY,
        rendition_id uuid NOT NULL REFERENCES renditions (id) ON DELETE CASCADE,
        publication_id uuid NOT NULL REFERENCES publications (id) ON DELETE CASCADE,
        attempt integer NOT NULL CHECK (attempt >= 1),
        started_at timestamptz(3) NOT NULL,
        finished_at timestamptz(3),
        outcome text NOT NULL CHECK (outcome IN ('submitted', 'live', 'retry', 'rejected', 'ambiguous')),
        error_code text NOT NULL DEFAULT '',
        error_message text NOT NULL DEFAULT '',
        http_status integer NOT NULL DEFAULT 0,
        UNIQUE (rendition_id, attempt)
      )`);
    await db.query(`CREATE INDEX delivery_attempts_publication_idx ON delivery_attempts (publication_id, started_at, id)`);
    // The sandbox network: one row per post it accepted. No unique marker on purpose: a duplicate delivery shows as two rows.
    // The posts hold tenants' text: they go with the account (disconnect, organization deletion).
    await db.query(`
      CREATE TABLE sandbox_posts (
        id uuid PRIMARY KEY,
        social_account_id uuid NOT NULL REFERENCES social_accounts (id) ON DELETE CASCADE,
        marker text NOT NULL,
        -- Posts of a thread accepted in one call; each part's id is derived from this row's.
        parts integer NOT NULL CHECK (parts >= 1),
        text text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX sandbox_posts_marker_idx ON sandbox_posts (marker)`);
    await db.query(`CREATE INDEX sandbox_posts_account_idx ON sandbox_posts (social_account_id)`);
    // Markers that act once ([sandbox:rate-limit-once], [sandbox:ambiguous-once]): the first call claims the row.
    await db.query(`
      CREATE TABLE sandbox_once (
        marker text NOT NULL,
        kind text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (marker, kind)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE sandbox_once');
    await db.query('DROP TABLE sandbox_posts');
    await db.query('DROP TABLE delivery_attempts');
    await db.query('DROP INDEX renditions_next_action_idx');
    await db.query(`ALTER TABLE renditions DROP COLUMN next_action_at, DROP COLUMN lease_owner, DROP COLUMN lease_expires_at,
      DROP COLUMN round_attempts, DROP COLUMN reconcile_failures`);
  }
}
