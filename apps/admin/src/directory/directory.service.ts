import { Inject, Injectable } from '@nestjs/common';
import {
  AccountsDirectoryPatterns,
  DailyCount,
  DirectoryUsersReply,
  DirectoryUsersRequest,
  InstanceOverview,
  InstanceUserPage,
  ListInstanceUsersQuery,
  USAGE_REPORTING_SERVICES,
  UsageForUsersReply,
  usageForUsersPattern,
  UsageTotals,
  usageTotalsPattern,
  UserUsage,
} from '@social/contracts';
import { askEach, RpcClient, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';

/** A service slower than this leaves its counts at 0 rather than failing the page. */
const USAGE_TIMEOUT_MS = 2_000;
const TREND_DAYS = 30;

/** The 30 UTC days ending today, oldest first. */
function trendDates(now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: TREND_DAYS }, (_, i) => new Date(today - (TREND_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/**
 * E9 and E7 read data other services own: the page of users from accounts,
 * then one batched usage request per reporting service (in parallel); a
 * service that does not answer in time leaves its counts at 0 and the answer
 * says `usage_complete: false`.
 */
@Injectable()
export class DirectoryService {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async listUsers(query: ListInstanceUsersQuery): Promise<InstanceUserPage> {
    const request: DirectoryUsersRequest = {
      page: query.page ?? 1,
      per_page: query.per_page ?? 25,
      search: query.search ?? '',
      sort: (query.sort ?? 'created_at') as DirectoryUsersRequest['sort'],
      direction: (query.direction ?? 'desc') as DirectoryUsersRequest['direction'],
    };
    const page = await this.rpc.send<DirectoryUsersReply>(AccountsDirectoryPatterns.listUsers, request);
    const userIds = page.users.map((user) => user.id);
    const reports =
      userIds.length === 0
        ? { answers: [], complete: true }
        : await this.gather<UsageForUsersReply>(usageForUsersPattern, { user_ids: userIds });
    const usage = (id: string): UserUsage => Object.assign({}, ...reports.answers.map((report) => report.usage?.[id] ?? {}));
    return {
      page: request.page,
      per_page: request.per_page,
      total: page.total,
      total_pages: Math.ceil(page.total / request.per_page),
      users: page.users.map((user) => {
        const counts = usage(user.id);
        return {
          ...user,
          organization_count: counts.organization_count ?? 0,
          workspace_count: counts.workspace_count ?? 0,
          publication_count: counts.publication_count ?? 0,
          social_account_count: counts.social_account_count ?? 0,
          media_item_count: counts.media_item_count ?? 0,
          media_bytes: counts.media_bytes ?? 0,
          video_project_count: counts.video_project_count ?? 0,
          image_design_count: counts.image_design_count ?? 0,
          plan_ids: [],
        };
      }),
      usage_complete: reports.complete,
    };
  }

  async overview(): Promise<InstanceOverview> {
    const reports = await this.gather<UsageTotals>(usageTotalsPattern, { days: TREND_DAYS });
    const totals = reports.answers;
    const sum = (member: keyof UsageTotals) => totals.reduce((n, t) => n + (typeof t[member] === 'number' ? (t[member] as number) : 0), 0);
    const trend = (member: 'user_registration_trend' | 'publication_trend'): DailyCount[] => {
      const values = new Map<string, number>();
      for (const t of totals) for (const point of t[member] ?? []) values.set(point.date, (values.get(point.date) ?? 0) + point.value);
      return trendDates().map((date) => ({ date, value: values.get(date) ?? 0 }));
    };
    return {
      total_users: sum('total_users'),
      new_users_last_30_days: sum('new_users_last_30_days'),
      total_organizations: sum('total_organizations'),
      total_workspaces: sum('total_workspaces'),
      total_publications: sum('total_publications'),
      published_last_30_days: sum('published_last_30_days'),
      total_media_items: sum('total_media_items'),
      total_media_bytes: sum('total_media_bytes'),
      total_video_projects: sum('total_video_projects'),
      total_image_designs: sum('total_image_designs'),
      user_registration_trend: trend('user_registration_trend'),
      publication_trend: trend('publication_trend'),
      usage_complete: reports.complete,
    };
  }

  /** One request per reporting service, all at once; the ones that do not answer in time are logged and left out. */
  private async gather<T>(pattern: (service: string) => string, payload: object): Promise<{ answers: T[]; complete: boolean }> {
    const { answers, unanswered } = await askEach<T>(this.rpc, USAGE_REPORTING_SERVICES, pattern, payload, USAGE_TIMEOUT_MS);
    if (unanswered.length) this.logger.warn({ services: unanswered }, 'usage reports missing');
    return { answers: [...answers.values()], complete: unanswered.length === 0 };
  }
}
