import { OUTBOX_TABLE_SQL } from '@social/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Delivery outcomes and account problems leave as durable events through the outbox, in the transaction of the change. */
export class CreateOutbox1764300006000 implements MigrationInterface {
  name = 'CreateOutbox1764300006000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(OUTBOX_TABLE_SQL);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE outbox_events');
  }
}
