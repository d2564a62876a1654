import { RATE_LIMIT_TABLE_SQL } from '@social/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Counters of `RateLimiter` (E16 per user), shared by every replica. */
export class CreateRateLimitCounters1764300000900 implements MigrationInterface {
  name = 'CreateRateLimitCounters1764300000900';

  async up(db: QueryRunner): Promise<void> {
    await db.query(RATE_LIMIT_TABLE_SQL);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE rate_limit_counters`);
  }
}
