import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { rememberAccounts } from '../accounts/account-directory.js';
import { ProviderClient } from './provider-client.js';
import type { PlannerRunRow } from './sync-job.row.js';
import { enqueueJob } from './sync-jobs.js';

/** How often a replica checks whether today was planned. */
const CHECK_EVERY_MS = 60_000;
const RETRY_AFTER_FAILURE_MS = 5_000;

/**
 * Every connected account is synced daily: the first replica to find today
 * unplanned inserts today's `planner_runs` row and, in the same transaction,
 * pages through every connected account (publishing's listing) and queues
 * its account metrics and growth refresh. The row lock makes the others skip
 * it; a replica dying midway rolls back, and another plans the day. The
 * same transaction drops jobs that finished more than a week ago.
 */
@Injectable()
export class DailyPlanner {
  private nextCheck = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly provider: ProviderClient,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async planIfDue(): Promise<void> {
    if (Date.now() < this.nextCheck) return;
    // After a failure (publishing not up yet) the next try comes sooner than the next check.
    this.nextCheck = Date.now() + RETRY_AFTER_FAILURE_MS;
    const planned = await this.dataSource.transaction(async (db) => {
      const claimed = await db.query<PlannerRunRow[]>(
        `INSERT INTO planner_runs (day, planned_at, accounts) VALUES ((now() AT TIME ZONE 'UTC')::date, now(), 0)
         ON CONFLICT DO NOTHING RETURNING day`,
      );
      if (claimed.length === 0) return -1;
      let count = 0;
      let after = '';
      do {
        const page = await this.provider.listAccounts({ limit: 500, ...(after ? { after_id: after } : {}) });
        await rememberAccounts(db, page.accounts);
        for (const account of page.accounts) {
          await enqueueJob(db, { kind: 'account_metrics', workspaceId: account.workspace_id, accountId: account.id });
          await enqueueJob(db, { kind: 'growth_refresh', workspaceId: account.workspace_id, accountId: account.id });
          count += 1;
        }
        after = page.next_after_id;
      } while (after);
      await db.query(`UPDATE planner_runs SET accounts = $1 WHERE day = (now() AT TIME ZONE 'UTC')::date`, [count]);
      // Finished jobs are kept a week (what ran, and how it ended), then dropped.
      await db.query(`DELETE FROM sync_jobs WHERE state IN ('done', 'failed') AND finished_at < now() - interval '7 days'`);
      return count;
    });
    this.nextCheck = Date.now() + CHECK_EVERY_MS;
    if (planned >= 0) this.logger.info({ accounts: planned }, 'planned the daily sync');
  }
}
