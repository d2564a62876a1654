import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Posts carry their media (issue 21), delivery's side: a rendition remembers since when it has waited for its
 * media's analysis (it fails `media_not_ready` 10 minutes after its first try), and the sandbox network keeps
 * what each post's parts carried (text and media as received) for GET /social-accounts/{id}/sandbox-posts,
 * listed newest first per account.
 */
export class AddDeliveryMedia1764300031000 implements MigrationInterface {
  name = 'AddDeliveryMedia1764300031000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE renditions ADD COLUMN media_waiting_since timestamptz(3)`);
    await db.query(`ALTER TABLE sandbox_posts ADD COLUMN content jsonb NOT NULL DEFAULT '[]'::jsonb`);
    await db.query(`CREATE INDEX sandbox_posts_account_newest_idx ON sandbox_posts (social_account_id, created_at DESC, id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX sandbox_posts_account_newest_idx`);
    await db.query(`ALTER TABLE sandbox_posts DROP COLUMN content`);
    await db.query(`ALTER TABLE renditions DROP COLUMN media_waiting_since`);
  }
}
