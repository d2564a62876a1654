import { Injectable } from '@nestjs/common';
import { UsageForUsersReply, UsageTotals } from '@social/contracts';
import { usageUserIds } from '@social/platform';
import { DataSource } from 'typeorm';
import type { CreatorUsageRow, UsageTotalsRow } from './usage.row.js';

/**
 * What media tells the admin directory and overview: ready library items and their
 * bytes, per uploader and in all (project assets' items are not library items).
 */
@Injectable()
export class ReportingService {
  constructor(private readonly dataSource: DataSource) {}

  /** `media.usage.for-users`: one grouped index scan (ready items by created_by), whatever the page size. */
  async usageForUsers(request: unknown): Promise<UsageForUsersReply> {
    const userIds = usageUserIds(request);
    const rows = await this.dataSource.query<CreatorUsageRow[]>(
      `SELECT u.user_id, coalesce(m.items, 0)::int AS items, coalesce(m.bytes, 0)::text AS bytes
         FROM unnest($1::uuid[]) AS u(user_id)
         LEFT JOIN (SELECT created_by, count(*) AS items, sum(size) AS bytes FROM media_items
                     WHERE created_by = ANY($1::uuid[]) AND status = 'ready' AND project_asset_id IS NULL AND poster_of IS NULL
                     GROUP BY created_by) m ON m.created_by = u.user_id`,
      [userIds],
    );
    return { usage: Object.fromEntries(rows.map((row) => [row.user_id, { media_item_count: row.items, media_bytes: Number(row.bytes) }])) };
  }

  /** `media.usage.totals`: every ready item and their bytes. */
  async totals(): Promise<UsageTotals> {
    const [row] = await this.dataSource.query<UsageTotalsRow[]>(
      `SELECT count(*)::int AS items, coalesce(sum(size), 0)::text AS bytes FROM media_items
       WHERE status = 'ready' AND project_asset_id IS NULL AND poster_of IS NULL`,
    );
    return { total_media_items: row.items, total_media_bytes: Number(row.bytes) };
  }
}
