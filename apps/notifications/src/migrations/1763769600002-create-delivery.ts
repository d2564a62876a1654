import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateDelivery1763769600002 implements MigrationInterface {
  name = 'CreateDelivery1763769600002';

  async up(db: QueryRunner): Promise<void> {
    // One row per (event, recipient) that gets anything: in-app (in_app) and/or a digest line (digest_pending).
    // created_at is when it becomes visible: the event's time, or the end of a mute that held it.
    await db.query(`
      CREATE TABLE notifications (
        id uuid PRIMARY KEY,
        event_id text NOT NULL,
        user_id uuid NOT NULL,
        topic text NOT NULL,
        workspace_id uuid,
        organization_id uuid,
        title text NOT NULL,
        body text NOT NULL,
        link text NOT NULL DEFAULT '',
        in_app boolean NOT NULL,
        digest_pending boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        read_at timestamptz,
        CONSTRAINT notifications_event_user_key UNIQUE (event_id, user_id)
      )`);
    await db.query(`CREATE INDEX notifications_inbox_idx ON notifications (user_id, created_at DESC, id DESC) WHERE in_app`);
    await db.query(`CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE in_app AND read_at IS NULL`);
    await db.query(`CREATE INDEX notifications_digest_idx ON notifications (user_id, created_at) WHERE digest_pending`);
    await db.query(`CREATE INDEX notifications_workspace_idx ON notifications (workspace_id) WHERE workspace_id IS NOT NULL`);
    await db.query(`CREATE INDEX notifications_organization_idx ON notifications (organization_id) WHERE organization_id IS NOT NULL`);
    // Outbox-style mail: written with the notification, sent by EmailSender (claim + lease, retries with backoff).
    await db.query(`
      CREATE TABLE email_deliveries (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('immediate', 'digest')),
        notification_id uuid UNIQUE,
        workspace_id uuid,
        organization_id uuid,
        subject text NOT NULL,
        text_body text NOT NULL,
        html_body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'refused', 'suppressed', 'no_address')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        lease text,
        lease_expires_at timestamptz,
        to_address text NOT NULL DEFAULT '',
        last_error text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL,
        sent_at timestamptz
      )`);
    await db.query(`CREATE INDEX email_deliveries_due_idx ON email_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await db.query(`CREATE INDEX email_deliveries_workspace_idx ON email_deliveries (workspace_id) WHERE workspace_id IS NOT NULL`);
    // An address the mail server refused permanently (5xx): nothing more is sent to it until the user's address changes.
    await db.query(`
      CREATE TABLE suppressed_addresses (
        address text PRIMARY KEY,
        user_id uuid NOT NULL,
        reason text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    // One digest per user and local day, whichever replica gets there first.
    await db.query(`
      CREATE TABLE digest_runs (
        user_id uuid NOT NULL,
        local_date date NOT NULL,
        due_at timestamptz NOT NULL,
        items integer NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, local_date)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE digest_runs, suppressed_addresses, email_deliveries, notifications`);
  }
}
