import { OUTBOX_TABLE_SQL } from '@social/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Durable events (organization deletion) leave through the outbox in the same transaction as the change. */
export class CreateOutbox1763769600201 implements MigrationInterface {
  name = 'CreateOutbox1763769600201';

  async up(db: QueryRunner): Promise<void> {
    await db.query(OUTBOX_TABLE_SQL);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE outbox_events');
  }
}
