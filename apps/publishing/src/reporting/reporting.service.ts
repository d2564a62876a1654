import { Injectable } from '@nestjs/common';
import { PendingWorkReply, UsageForUsersReply, UsageTotals } from '@social/contracts';
import { dailyCounts, isUuid, problems, usageTrendDays, usageUserIds } from '@social/platform';
import { DataSource } from 'typeorm';

const MAX_PENDING_WORK_WORKSPACES = 10_000;

/**
 * What publishing tells other services about its data, in counts only: the
 * admin directory and overview (usage) and the organization deletion preview
 * (pending work). Each answer is one or two queries, whatever the input size.
 */
@Injectable()
export class ReportingService {
  constructor(private readonly dataSource: DataSource) {}

  /** `publishing.usage.for-users`: publications each user created and social accounts each connected. */
  async usageForUsers(request: unknown): Promise<UsageForUsersReply> {
    const userIds = usageUserIds(request);
    // Two grouped index scans (publications by created_by, accounts by connected_by), whatever the page size.
    const rows = await this.dataSource.query<Array<{ user_id: string; publication_count: number; social_account_count: number }>>(
      `SELECT u.user_id, coalesce(p.count, 0)::int AS publication_count, coalesce(a.count, 0)::int AS social_account_count
         FROM unnest($1::uuid[]) AS u(user_id)
         LEFT JOIN (SELECT created_by, count(*) FROM publications WHERE created_by = ANY($1::uuid[]) GROUP BY created_by) p
                ON p.created_by = u.user_id
         LEFT JOIN (SELECT connected_by, count(*) FROM social_accounts WHERE connected_by = ANY($1::uuid[]) GROUP BY connected_by) a
                ON a.connected_by = u.user_id`,
      [userIds],
    );
    return {
      usage: Object.fromEntries(
        rows.map((row) => [row.user_id, { publication_count: row.publication_count, social_account_count: row.social_account_count }]),
      ),
    };
  }

  /**
   * `publishing.usage.totals`: every publication, and those that went out per
   * UTC day over the last `days` (by `actual_run_at`); `published_last_30_days`
   * is that trend's sum, as accounts' new users are its registrations' sum.
   */
  async totals(request: unknown): Promise<UsageTotals> {
    const days = usageTrendDays(request);
    const [[{ total }], trend] = await Promise.all([
      this.dataSource.query<Array<{ total: number }>>(`SELECT count(*)::int AS total FROM publications`),
      dailyCounts(this.dataSource, { table: 'publications', at: 'actual_run_at', where: "t.status = 'published'", days }),
    ]);
    return {
      total_publications: total,
      published_last_30_days: trend.reduce((sum, point) => sum + point.value, 0),
      publication_trend: trend,
    };
  }

  /**
   * `publishing.tenancy.pendingWork` for E10: scheduled or running
   * publications are pending jobs (deleted with the content); renditions being
   * handed to a network are provider writes in flight (they block deletion).
   */
  async pendingWork(workspaceIds: unknown): Promise<PendingWorkReply> {
    if (!Array.isArray(workspaceIds) || workspaceIds.length > MAX_PENDING_WORK_WORKSPACES || !workspaceIds.every(isUuid)) {
      throw problems.invalid('workspace_ids', `must be at most ${MAX_PENDING_WORK_WORKSPACES} workspace ids`);
    }
    const [counts] = await this.dataSource.query<Array<{ pending_jobs: number; pending_provider_writes: number }>>(
      `SELECT (SELECT count(*)::int FROM publications
                WHERE workspace_id = ANY($1::uuid[]) AND status IN ('scheduled', 'publishing')) AS pending_jobs,
              (SELECT count(*)::int FROM renditions r JOIN publications p ON p.id = r.publication_id
                WHERE p.workspace_id = ANY($1::uuid[]) AND r.status = 'publishing') AS pending_provider_writes`,
      [workspaceIds],
    );
    return { pending_jobs: counts.pending_jobs, pending_cleanup_jobs: 0, pending_provider_writes: counts.pending_provider_writes };
  }
}
