import type { MigrationInterface, QueryRunner } from 'typeorm';
import { OUTBOX_CONTEXT_COLUMNS_SQL } from './outbox.js';

/**
 * Outbox rows keep the request id and trace context of the request that wrote them (the consumer's trace
 * follows on). One migration for every producing service: each lists it after its own outbox migration.
 */
export class AddOutboxContext1799000000000 implements MigrationInterface {
  name = 'AddOutboxContext1799000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(OUTBOX_CONTEXT_COLUMNS_SQL);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE outbox_events DROP COLUMN request_id, DROP COLUMN trace_context');
  }
}
