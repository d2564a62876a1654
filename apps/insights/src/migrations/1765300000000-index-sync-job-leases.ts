import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sync claim looks for running jobs whose lease ran out. Without an index of its own it walked every queued
 * job of `sync_jobs_due_idx`, future ones included (each published rendition queues metrics jobs for later):
 * 28 ms a claim with 28,000 of them, most of PostgreSQL's CPU during a publishing burst.
 */
export class IndexSyncJobLeases1765300000000 implements MigrationInterface {
  name = 'IndexSyncJobLeases1765300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX sync_jobs_lease_idx ON sync_jobs (lease_expires_at) WHERE state = 'running'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX sync_jobs_lease_idx`);
  }
}
