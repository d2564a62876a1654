import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Grant renewal claims: the replica renewing an account's grant sets
 * `renewing_until` in one short statement, calls the network with no
 * transaction open, then stores the grant and clears it (ProviderAccounts).
 */
export class AddGrantRenewalClaim1764300008000 implements MigrationInterface {
  name = 'AddGrantRenewalClaim1764300008000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE social_accounts ADD COLUMN renewing_until timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE social_accounts DROP COLUMN renewing_until`);
  }
}
