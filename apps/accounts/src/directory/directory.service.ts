import { Injectable } from '@nestjs/common';
import {
  DirectoryUser,
  DirectoryUsersReply,
  DirectoryUsersRequest,
  SORT_DIRECTIONS,
  USER_SORTS,
  UsageForUsersReply,
  UsageTotals,
} from '@social/contracts';
import { dailyCounts, preparedQuery, problems, usageTrendDays, usageUserIds } from '@social/platform';
import { DataSource } from 'typeorm';

/**
 * Sort columns of E9. `workspace_count` is the user's workspace memberships;
 * `publication_count` is publishing's count, which accounts cannot order by:
 * it orders by the tie-breaker alone (newest first).
 */
const ORDER: Record<(typeof USER_SORTS)[number], string> = {
  created_at: 'created_at',
  email: 'lower(email)',
  display_name: 'lower(display_name)',
  last_active_at: 'last_active_at',
  workspace_count: '(SELECT count(*) FROM workspace_members wm WHERE wm.user_id = users.id)',
  publication_count: 'created_at',
};

const MATCHES = `($1 = '' OR lower(email) LIKE $1 ESCAPE '\\' OR lower(display_name) LIKE $1 ESCAPE '\\')`;

interface UserRow {
  id: string;
  email: string;
  display_name: string;
  avatar_url: string;
  is_admin: boolean;
  created_at: Date;
  last_active_at: Date | null;
}

/** Users for the admin service (E9, E7): accounts owns them, the admin service asks. */
@Injectable()
export class DirectoryService {
  constructor(private readonly dataSource: DataSource) {}

  async listUsers(request: DirectoryUsersRequest): Promise<DirectoryUsersReply> {
    const sort = ORDER[request.sort];
    const direction = request.direction === 'asc' ? 'ASC' : 'DESC';
    if (
      !sort ||
      !SORT_DIRECTIONS.includes(request.direction) ||
      !(request.per_page >= 1 && request.per_page <= 100) ||
      !(request.page >= 1)
    ) {
      throw problems.invalid('query', 'is not a valid directory request');
    }
    const pattern = request.search ? `%${request.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '';
    // Never-active users sort last either way; id breaks ties so pages never overlap.
    // publication_count is publishing's: the tie-breaker alone decides, newest first either way.
    const order =
      request.sort === 'publication_count'
        ? 'created_at DESC, id DESC'
        : `${sort} ${direction}${sort === 'last_active_at' ? ' NULLS LAST' : ''}, id ${direction}`;
    const [rows, [{ total }]] = await Promise.all([
      preparedQuery<UserRow>(
        this.dataSource,
        `accounts.directory.${request.sort}.${direction}`,
        `SELECT id, email, display_name, avatar_url, is_admin, created_at, last_active_at FROM users
         WHERE ${MATCHES} ORDER BY ${order} LIMIT $2 OFFSET $3`,
        [pattern, request.per_page, (request.page - 1) * request.per_page],
      ),
      preparedQuery<{ total: number }>(
        this.dataSource,
        'accounts.directory.count',
        `SELECT count(*)::int AS total FROM users WHERE ${MATCHES}`,
        [pattern],
      ),
    ]);
    return { total, users: rows.map(toDirectoryUser) };
  }

  /** `accounts.usage.for-users`: what accounts owns per user (memberships, last activity), one query for the whole page. */
  async usageForUsers(request: unknown): Promise<UsageForUsersReply> {
    const userIds = usageUserIds(request);
    const rows = await this.dataSource.query<
      Array<{ id: string; last_active_at: Date | null; organization_count: number; workspace_count: number }>
    >(
      `SELECT u.id, u.last_active_at,
              (SELECT count(*)::int FROM organization_members om WHERE om.user_id = u.id) AS organization_count,
              (SELECT count(*)::int FROM workspace_members wm WHERE wm.user_id = u.id) AS workspace_count
         FROM users u WHERE u.id = ANY($1::uuid[])`,
      [userIds],
    );
    return {
      usage: Object.fromEntries(
        rows.map((row) => [
          row.id,
          {
            organization_count: row.organization_count,
            workspace_count: row.workspace_count,
            last_active_at: row.last_active_at ? new Date(row.last_active_at).toISOString() : '',
          },
        ]),
      ),
    };
  }

  /** `accounts.usage.totals`: users, organizations, workspaces and daily registrations over the last `days` UTC days. */
  async totals(request: unknown): Promise<UsageTotals> {
    const days = usageTrendDays(request);
    const [[{ total, organizations, workspaces }], trend] = await Promise.all([
      this.dataSource.query<Array<{ total: number; organizations: number; workspaces: number }>>(
        `SELECT (SELECT count(*)::int FROM users) AS total,
                (SELECT count(*)::int FROM organizations) AS organizations,
                (SELECT count(*)::int FROM workspaces) AS workspaces`,
      ),
      dailyCounts(this.dataSource, { table: 'users', at: 'created_at', days }),
    ]);
    return {
      total_users: total,
      new_users_last_30_days: trend.reduce((sum, point) => sum + point.value, 0),
      user_registration_trend: trend,
      total_organizations: organizations,
      total_workspaces: workspaces,
    };
  }
}

function toDirectoryUser(row: UserRow): DirectoryUser {
  return {
    id: row.id,
    email: row.email,
    display_name: row.display_name,
    avatar_url: row.avatar_url,
    is_admin: row.is_admin,
    created_at: new Date(row.created_at).toISOString(),
    last_active_at: row.last_active_at ? new Date(row.last_active_at).toISOString() : '',
  };
}
