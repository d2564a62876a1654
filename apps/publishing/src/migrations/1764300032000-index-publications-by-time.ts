import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /publications?from=&to=` (the console's calendar) reads a workspace's publications by their time: when they
 * went out, else when they are due. The expression is the list's condition word for word, so the planner uses it.
 */
export class IndexPublicationsByTime1764300032000 implements MigrationInterface {
  name = 'IndexPublicationsByTime1764300032000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX publications_workspace_time_idx ON publications (workspace_id, (COALESCE(actual_run_at, scheduled_at)))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX publications_workspace_time_idx`);
  }
}
