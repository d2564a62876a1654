import { OUTBOX_TABLE_SQL } from '@social/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscriptions, the events turned into deliveries (one body and `webhook-id` per event, whatever the number
 * of subscriptions), and one delivery per (event, webhook), the log the API shows. The outbox carries
 * `durable.webhooks.webhook.deactivated` to notifications.
 */
export class CreateWebhooks1765000000000 implements MigrationInterface {
  name = 'CreateWebhooks1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text NOT NULL DEFAULT '',
        active boolean NOT NULL DEFAULT true,
        -- SecretBox envelopes (context webhooks:<id>); the previous secret signs too until previous_secret_until.
        secret text NOT NULL,
        previous_secret text NOT NULL DEFAULT '',
        previous_secret_until timestamptz,
        -- The first failed attempt since the last success: 3 days of it deactivate the webhook.
        failing_since timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX webhooks_workspace_idx ON webhooks (workspace_id, created_at, id)`);
    // dedupe_key: the producer's event id (a redelivered JetStream message makes nothing new), or media.ready:<item>.
    await db.query(`
      CREATE TABLE webhook_events (
        id uuid PRIMARY KEY,
        dedupe_key text NOT NULL UNIQUE,
        workspace_id uuid NOT NULL,
        type text NOT NULL,
        ordering_key text NOT NULL,
        sequence bigint NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX webhook_events_workspace_idx ON webhook_events (workspace_id)`);
    await db.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL,
        event_type text NOT NULL,
        -- Sent in (ordering_key, sequence) order per webhook: one publication's events in the order they happened.
        ordering_key text NOT NULL,
        sequence bigint NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        -- 8, or one more than attempts after a redelivery.
        max_attempts integer NOT NULL,
        last_status_code integer NOT NULL DEFAULT 0,
        last_error text NOT NULL DEFAULT '',
        next_attempt_at timestamptz,
        lease text,
        lease_expires_at timestamptz,
        created_at timestamptz NOT NULL,
        CONSTRAINT webhook_deliveries_event_webhook_key UNIQUE (event_id, webhook_id)
      )`);
    await db.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await db.query(`CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (webhook_id, created_at DESC, id DESC)`);
    await db.query(
      `CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (webhook_id, ordering_key, sequence) WHERE attempts = 0`,
    );
    await db.query(`CREATE INDEX webhook_deliveries_workspace_idx ON webhook_deliveries (workspace_id)`);
    await db.query(OUTBOX_TABLE_SQL);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE outbox_events`);
    await db.query(`DROP TABLE webhook_deliveries`);
    await db.query(`DROP TABLE webhook_events`);
    await db.query(`DROP TABLE webhooks`);
  }
}
