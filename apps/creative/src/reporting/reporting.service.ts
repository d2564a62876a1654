import { Injectable } from '@nestjs/common';
import { UsageForUsersReply, UsageTotals } from '@social/contracts';
import { usageUserIds } from '@social/platform';
import { DataSource } from 'typeorm';
import type { CreatorUsageRow, UsageTotalsRow } from './usage.row.js';

/**
 * What creative tells the admin directory and overview: video projects
 * (trashed ones until purged) and image designs, per creator and in all.
 */
@Injectable()
export class ReportingService {
  constructor(private readonly dataSource: DataSource) {}

  async usageForUsers(request: unknown): Promise<UsageForUsersReply> {
    const userIds = usageUserIds(request);
    const rows = await this.dataSource.query<CreatorUsageRow[]>(
      `SELECT u.user_id, coalesce(p.projects, 0)::int AS projects, coalesce(d.designs, 0)::int AS designs
         FROM unnest($1::uuid[]) AS u(user_id)
         LEFT JOIN (SELECT created_by, count(*) AS projects FROM video_projects WHERE created_by = ANY($1::uuid[]) GROUP BY created_by) p
           ON p.created_by = u.user_id
         LEFT JOIN (SELECT created_by, count(*) AS designs FROM image_designs WHERE created_by = ANY($1::uuid[]) GROUP BY created_by) d
           ON d.created_by = u.user_id`,
      [userIds],
    );
    return {
      usage: Object.fromEntries(rows.map((row) => [row.user_id, { video_project_count: row.projects, image_design_count: row.designs }])),
    };
  }

  async totals(): Promise<UsageTotals> {
    const [row] = await this.dataSource.query<UsageTotalsRow[]>(
      `SELECT (SELECT count(*) FROM video_projects)::int AS projects, (SELECT count(*) FROM image_designs)::int AS designs`,
    );
    return { total_video_projects: row.projects, total_image_designs: row.designs };
  }
}
