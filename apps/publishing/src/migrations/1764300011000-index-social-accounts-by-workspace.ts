import { MigrationInterface, QueryRunner } from 'typeorm';

/** `publishing.providers.accounts` (issue 15) pages a workspace's accounts by id: a keyset range on this index. */
export class IndexSocialAccountsByWorkspace1764300011000 implements MigrationInterface {
  name = 'IndexSocialAccountsByWorkspace1764300011000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX social_accounts_workspace_id_idx ON social_accounts (workspace_id, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX social_accounts_workspace_id_idx`);
  }
}
