import { MigrationInterface, QueryRunner } from 'typeorm';

/** The mutual accounts a network names for a growth recommendation (GrowthItem.mutuals, capitalised keys as the interface has them). */
export class AddGrowthMutuals1765200000000 implements MigrationInterface {
  name = 'AddGrowthMutuals1765200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE growth_items ADD COLUMN mutuals jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE growth_items DROP COLUMN mutuals`);
  }
}
