import { Inject, Injectable } from '@nestjs/common';
import {
  DOCUMENT_LIST_BUDGET_BYTES,
  ACCOUNT_METRICS,
  ANALYTICS_PAGE_DEFAULT,
  AnalyticsAccount,
  AnalyticsOverview,
  AnalyticsQuery,
  AnalyticsTrendPoint,
  Coverage,
  Insight,
  MetricMetadata,
  Principal,
  PublicationAnalytics,
  RefreshAnalyticsRequest,
  SeriesPoint,
  SyncJobAccepted,
} from '@social/contracts';
import { AccessControl, CursorCodec, isUuid, problems, SERVICE_CONFIG } from '@social/platform';
import { DataSource } from 'typeorm';
import { AccountDirectory } from '../accounts/account-directory.js';
import type { InsightsConfig } from '../config.js';
import { enqueueJob, recordEmptyJob } from '../sync/sync-jobs.js';
import {
  type AccountRow,
  iso,
  metadata,
  type PublicationRow,
  RENDITION_COLUMNS,
  RenditionRow,
  STALE_AFTER_MS,
  toContentItem,
  type TotalsRow,
} from './analytics.row.js';

const DAY_MS = 86_400_000;
/** A generous bound on the bytes of one content item, account, or trend day as JSON (measured: 2.5 KB, 2 KB with 30 days, 0.8 KB). */
const ITEM_BYTES = 3_000;
type Sort = 'engagement' | 'views' | 'newest';

/** Where a page of content (`c`) or publications (`p`) ends: the last item's sort key and id. */
interface Position {
  l: 'c' | 'p';
  k: number | string;
  id: string;
}
const isPosition = (value: unknown): value is Position => {
  const p = value as Position;
  return (
    !!p &&
    (p.l === 'c' || p.l === 'p') &&
    isUuid(p.id) &&
    ((typeof p.k === 'number' && Number.isSafeInteger(p.k)) || (typeof p.k === 'string' && !Number.isNaN(Date.parse(p.k))))
  );
};

const ORDER: Record<Sort, { column: string; numeric: boolean }> = {
  engagement: { column: 'engagement', numeric: true },
  views: { column: 'views', numeric: true },
  newest: { column: 'published_at', numeric: false },
};

const utcDay = (at: number) => new Date(Math.floor(at / DAY_MS) * DAY_MS);

/**
 * E24: stored whole-account analytics, aggregated in SQL (a handful of
 * queries per request whatever the number of renditions), and the refresh
 * that queues account metrics jobs.
 */
@Injectable()
export class AnalyticsService {
  /**
   * What one answer may weigh: half a NATS message (libs/contracts
   * message-size), so the envelope and the gateway's additions always fit.
   */
  static answerBudgetBytes = DOCUMENT_LIST_BUDGET_BYTES;
  private readonly cursors: CursorCodec;

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly accounts: AccountDirectory,
    @Inject(SERVICE_CONFIG) config: InsightsConfig,
  ) {
    this.cursors = CursorCodec.derive(config.SECRETS_KEY, 'insights-analytics');
  }

  /**
   * 202: one account metrics job per account (deduplicated while one is
   * queued); without account_id every connected account of the workspace.
   */
  async refresh(principal: Principal, input: RefreshAnalyticsRequest): Promise<SyncJobAccepted> {
    await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    const accountIds = input.account_id
      ? [(await this.accounts.require(input.workspace_id, input.account_id)).id]
      : (await this.accounts.listWorkspace(input.workspace_id)).map((a) => a.id);
    // Nothing connected: a real job, done at once, so job_id always names one.
    if (accountIds.length === 0)
      return { job_id: await recordEmptyJob(this.dataSource, input.workspace_id.toLowerCase(), 'account_metrics'), status: 'done' };
    const jobs = await this.dataSource.transaction(async (db) => {
      const ids: string[] = [];
      for (const accountId of accountIds)
        ids.push((await enqueueJob(db, { kind: 'account_metrics', workspaceId: input.workspace_id, accountId })).id);
      return ids;
    });
    return { job_id: jobs[0], status: 'queued' };
  }

  async overview(principal: Principal, query: AnalyticsQuery): Promise<AnalyticsOverview> {
    await this.access.requireWorkspace(principal, query.workspace_id, 'viewer', 'query');
    const workspaceId = query.workspace_id.toLowerCase();
    const accountId = query.account_id ? (await this.accounts.require(workspaceId, query.account_id)).id : null;
    const days = query.days ?? 30;
    const source = query.source ?? 'all';
    const sort = (query.sort ?? 'engagement') as Sort;
    const limit = query.limit ?? ANALYTICS_PAGE_DEFAULT;
    const filters = { workspace_id: workspaceId, days, account_id: accountId ?? '', source, sort };
    const position = query.cursor ? this.cursors.decode(query.cursor, filters, isPosition) : null;
    if (position && ORDER[sort].numeric !== (typeof position.k === 'number')) {
      throw problems.invalid('query.cursor', 'is not a cursor of this list with these filters (start again without one)');
    }
    const now = Date.now();
    const start = new Date(utcDay(now).getTime() - (days - 1) * DAY_MS);
    const previousStart = new Date(start.getTime() - days * DAY_MS);
    // Content filter: the workspace, the window, the account; `external` content is not collected (none yet).
    const native = source !== 'external';
    const base = [workspaceId, start, accountId, native];
    const where = `r.workspace_id = $1 AND r.published_at >= $2 AND ($3::uuid IS NULL OR r.social_account_id = $3) AND $4::boolean`;

    const [accountRows, [total], content, publications] = await Promise.all([
      this.accountRows(workspaceId, accountId, start),
      // One scan of the window: the daily trends with their top contributors, and the totals; the previous window only sums.
      this.dataSource.query<TotalsRow[]>(
        `WITH f AS MATERIALIZED (
                SELECT r.id, r.publication_id, r.social_account_id, r.title, r.platform, r.views, r.engagement, r.collected_at,
                       to_char(r.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d
                  FROM renditions r WHERE ${where}),
              ranked AS (SELECT f.*, row_number() OVER (PARTITION BY d ORDER BY views DESC, id DESC) AS rv,
                                row_number() OVER (PARTITION BY d ORDER BY engagement DESC, id DESC) AS re FROM f),
              days AS (
                SELECT d, sum(views) AS views, sum(engagement) AS engagement,
                       json_agg(json_build_object('key', id, 'label', title, 'platform', platform, 'publication_id', publication_id,
                                                  'value', views) ORDER BY rv) FILTER (WHERE rv <= 5) AS view_items,
                       json_agg(json_build_object('key', id, 'label', title, 'platform', platform, 'publication_id', publication_id,
                                                  'value', engagement) ORDER BY re) FILTER (WHERE re <= 5) AS engagement_items
                  FROM ranked GROUP BY d)
         SELECT t.*, p.previous_views, p.previous_engagement, (SELECT coalesce(json_agg(days ORDER BY d), '[]'::json) FROM days) AS days
           FROM (SELECT count(*)::int AS total, count(collected_at)::int AS measured, sum(views) AS views, sum(engagement) AS engagement,
                        count(DISTINCT publication_id)::int AS publications, count(DISTINCT social_account_id)::int AS destinations,
                        min(collected_at) AS first_collected, max(collected_at) AS last_collected FROM f) t,
                (SELECT sum(r.views) AS previous_views, sum(r.engagement) AS previous_engagement FROM renditions r
                  WHERE r.workspace_id = $1 AND r.published_at >= $5 AND r.published_at < $2
                    AND ($3::uuid IS NULL OR r.social_account_id = $3) AND $4::boolean) p`,
        [...base, previousStart],
      ),
      this.contentPage(where, base, sort, limit, position?.l === 'c' ? position : null),
      this.publicationPage(where, base, sort, limit, position?.l === 'p' ? position : null),
    ]);
    const days_ = total.days;
    const top = await this.topEngagement(where, base, total.measured);

    const accounts = accountRows.map((row) => this.toAccount(row, now));
    const followerSeries = sumSeries(accountRows);
    const contentItems = content.rows.map((row) => toContentItem(row, now));
    const contentCursor = (row: RenditionRow) => this.cursors.encode({ l: 'c', ...keyOf(sort, row), id: row.id }, filters);
    const publicationCursor = (row: PublicationRow) =>
      this.cursors.encode(
        { l: 'p', ...keyOf(sort, { engagement: row.engagement, views: row.views, published_at: row.sort_at }), id: row.publication_id },
        filters,
      );
    const lastContent = content.rows.at(-1);
    const lastPublication = publications.rows.at(-1);
    const accountSynced = accountRows.map((a) => a.last_success_at?.getTime() ?? 0);
    const lastSynced = Math.max(0, total.last_collected?.getTime() ?? 0, ...accountSynced);

    const overview: AnalyticsOverview = {
      range_days: days,
      source,
      account_growth_scope: 'account_wide',
      generated_at: new Date(now).toISOString(),
      last_synced_at: lastSynced ? new Date(lastSynced).toISOString() : null,
      summary: {
        followers: {
          value: accounts.reduce((sum, a) => sum + (a.metrics.followers ?? 0), 0),
          delta: accounts.reduce((sum, a) => sum + a.follower_delta, 0),
          measured: accountRows.filter((a) => a.latest).length,
        },
        views: {
          value: Number(total.views ?? 0),
          delta: Number(total.views ?? 0) - Number(total.previous_views ?? 0),
          measured: total.measured,
        },
        engagement: {
          value: Number(total.engagement ?? 0),
          delta: Number(total.engagement ?? 0) - Number(total.previous_engagement ?? 0),
          measured: total.measured,
        },
        impressions: { value: 0, delta: 0, measured: 0 },
        reach: { value: 0, delta: 0, measured: 0 },
        follower_scope: 'account_wide',
        published: total.total,
      },
      accounts,
      follower_series: followerSeries,
      trends: {
        views: days_.map((d) => ({ date: d.d, value: Number(d.views), items: d.view_items ?? [] })),
        engagement: days_.map((d) => ({ date: d.d, value: Number(d.engagement), items: d.engagement_items ?? [] })),
        followers: followerTrend(accountRows),
      },
      content: contentItems,
      content_total: total.total,
      content_next_cursor: content.more && lastContent ? contentCursor(lastContent) : '',
      publications: publications.rows.map((p) => this.toPublication(p, publications.renditions.get(p.publication_id) ?? [], now)),
      publication_total: total.publications,
      publication_next_cursor: publications.more && lastPublication ? publicationCursor(lastPublication) : '',
      coverage: accountRows.map((row) => this.toCoverage(row)),
      insights: this.insights(total, top, start, now),
    };
    // NATS carries at most 1 MiB: pages shrink (halving) until the answer fits, their cursors continuing after the last item kept.
    // Serialized only when a rough bound says it may not fit (the common answer is far below).
    const renditionsListed = overview.content.length + overview.publications.reduce((sum, p) => sum + p.renditions.length + 1, 0);
    const bound =
      ITEM_BYTES *
      (renditionsListed + overview.accounts.length * (1 + days / 30) + overview.trends.views.length + overview.coverage.length);
    while (
      bound > AnalyticsService.answerBudgetBytes &&
      (overview.content.length > 1 || overview.publications.length > 1) &&
      Buffer.byteLength(JSON.stringify(overview)) > AnalyticsService.answerBudgetBytes
    ) {
      if (overview.content.length > 1) {
        const keep = Math.ceil(overview.content.length / 2);
        overview.content = overview.content.slice(0, keep);
        overview.content_next_cursor = contentCursor(content.rows[keep - 1]);
      }
      if (overview.publications.length > 1) {
        const keep = Math.ceil(overview.publications.length / 2);
        overview.publications = overview.publications.slice(0, keep);
        overview.publication_next_cursor = publicationCursor(publications.rows[keep - 1]);
      }
    }
    return overview;
  }

  private accountRows(workspaceId: string, accountId: string | null, start: Date): Promise<AccountRow[]> {
    return this.dataSource.query<AccountRow[]>(
      `SELECT a.id, a.platform, a.username, a.avatar_url, a.status, a.error_code, a.error_message, a.missing_scopes, a.last_attempted_at,
              a.last_success_at, a.first_success_at, a.next_sync_at,
              (SELECT json_agg(json_build_object('date', to_char(s.date, 'YYYY-MM-DD'), 'followers', s.followers) ORDER BY s.date)
                 FROM account_snapshots s WHERE s.account_id = a.id AND s.date >= $3::date) AS series,
              (SELECT json_build_object('followers', s.followers, 'following', s.following, 'posts', s.posts,
                                        'collected_at', s.collected_at)
                 FROM account_snapshots s WHERE s.account_id = a.id ORDER BY s.date DESC LIMIT 1) AS latest,
              (SELECT count(*)::int FROM renditions r WHERE r.social_account_id = a.id) AS discovered,
              (SELECT min(r.published_at) FROM renditions r WHERE r.social_account_id = a.id) AS watermark,
              (SELECT min(j.run_at) FROM sync_jobs j
                WHERE j.account_id = a.id AND j.kind = 'account_metrics' AND j.state = 'queued') AS queued_at,
              EXISTS (SELECT 1 FROM sync_jobs j WHERE j.account_id = a.id AND j.kind = 'account_metrics' AND j.state = 'running') AS running
         FROM accounts a
        WHERE a.workspace_id = $1 AND ($2::uuid IS NULL OR a.id = $2)
        ORDER BY lower(a.username), a.id`,
      [workspaceId, accountId, start.toISOString().slice(0, 10)],
    );
  }

  private async contentPage(where: string, base: unknown[], sort: Sort, limit: number, after: Position | null) {
    const { column, numeric } = ORDER[sort];
    const keyset = after ? `AND (r.${column}, r.id) < ($5::${numeric ? 'bigint' : 'timestamptz'}, $6::uuid)` : '';
    const rows = await this.dataSource.query<RenditionRow[]>(
      `SELECT ${RENDITION_COLUMNS} FROM renditions r LEFT JOIN accounts a ON a.id = r.social_account_id
        WHERE ${where} ${keyset} ORDER BY r.${column} DESC, r.id DESC LIMIT ${limit + 1}`,
      after ? [...base, after.k, after.id] : base,
    );
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  private async publicationPage(where: string, base: unknown[], sort: Sort, limit: number, after: Position | null) {
    const column = sort === 'newest' ? 'sort_at' : sort;
    const keyset = after ? `WHERE (p.${column}, p.publication_id) < ($5::${sort === 'newest' ? 'timestamptz' : 'bigint'}, $6::uuid)` : '';
    const found = await this.dataSource.query<PublicationRow[]>(
      `WITH p AS (SELECT r.publication_id, (array_agg(r.title ORDER BY r.published_at, r.id))[1] AS title,
                         (array_agg(r.excerpt ORDER BY r.published_at, r.id))[1] AS excerpt,
                         sum(r.engagement) AS engagement, sum(r.views) AS views, min(r.published_at) AS published_at,
                         max(r.published_at) AS sort_at
                    FROM renditions r WHERE ${where} GROUP BY r.publication_id)
       SELECT * FROM p ${keyset} ORDER BY p.${column} DESC, p.publication_id DESC LIMIT ${limit + 1}`,
      after ? [...base, after.k, after.id] : base,
    );
    const rows = found.slice(0, limit);
    const renditions = new Map<string, RenditionRow[]>();
    if (rows.length > 0) {
      const members = await this.dataSource.query<RenditionRow[]>(
        `SELECT ${RENDITION_COLUMNS} FROM renditions r LEFT JOIN accounts a ON a.id = r.social_account_id
          WHERE ${where} AND r.publication_id = ANY($5::uuid[]) ORDER BY r.published_at, r.id`,
        [...base, rows.map((p) => p.publication_id)],
      );
      for (const m of members) renditions.set(m.publication_id, [...(renditions.get(m.publication_id) ?? []), m]);
    }
    return { rows, renditions, more: found.length > limit };
  }

  private async topEngagement(where: string, base: unknown[], measured: number): Promise<RenditionRow | null> {
    if (measured === 0) return null;
    const [row] = await this.dataSource.query<RenditionRow[]>(
      `SELECT ${RENDITION_COLUMNS} FROM renditions r LEFT JOIN accounts a ON a.id = r.social_account_id
        WHERE ${where} AND r.collected_at IS NOT NULL ORDER BY r.engagement DESC, r.id DESC LIMIT 1`,
      base,
    );
    return row ?? null;
  }

  private toAccount(row: AccountRow, now: number): AnalyticsAccount {
    const series: SeriesPoint[] = (row.series ?? []).map((p) => ({ date: p.date, value: Number(p.followers) }));
    const latest = row.latest;
    const collected = latest ? new Date(latest.collected_at) : null;
    const metrics: Record<string, number> = {};
    const metricMetadata: Record<string, MetricMetadata> = {};
    for (const metric of ACCOUNT_METRICS) {
      metrics[metric] = latest ? Number(latest[metric]) : 0;
      metricMetadata[metric] = metadata(!!latest, row.platform, collected, collected);
    }
    const missing = row.status === 'permission_required' ? row.missing_scopes : [];
    return {
      id: row.id,
      platform: row.platform,
      username: row.username,
      avatar_url: row.avatar_url,
      status: row.status,
      error_code: row.error_code,
      error_message: row.error_message,
      account_supported: row.status !== 'unsupported',
      content_supported: row.status !== 'unsupported',
      stale: !row.last_success_at || now - row.last_success_at.getTime() > STALE_AFTER_MS,
      follower_delta: series.length >= 2 ? series[series.length - 1].value - series[0].value : 0,
      follower_series: series,
      last_synced_at: iso(row.last_success_at),
      next_sync_at: iso(row.queued_at ?? row.next_sync_at),
      metric_metadata: metricMetadata,
      metrics,
      missing_account_scopes: missing,
      missing_content_scopes: missing,
    };
  }

  private toCoverage(row: AccountRow): Coverage {
    const failed = !['ok', 'pending'].includes(row.status);
    const status = row.running ? 'running' : failed ? 'failed' : row.first_success_at ? 'complete' : 'pending';
    return {
      account_id: row.id,
      platform: row.platform,
      status,
      description:
        `The account's counters and those of its ${row.discovered} published ` +
        `rendition${row.discovered === 1 ? '' : 's'} known to analytics.`,
      failure_code: failed ? row.error_code : '',
      failure_message: failed ? row.error_message : '',
      initial_items_discovered: row.discovered,
      backfill_watermark: iso(row.watermark),
      initial_completed_at: iso(row.first_success_at),
      last_attempted_at: iso(row.last_attempted_at),
      last_success_at: iso(row.last_success_at),
      next_eligible_at: iso(row.queued_at ?? row.next_sync_at),
    };
  }

  private toPublication(p: PublicationRow, members: RenditionRow[], now: number): PublicationAnalytics {
    const items = members.map((m) => toContentItem(m, now));
    const measuredItems = items.filter((i) => i.metric_availability === 'available');
    const metrics: Record<string, number> = { views: 0, likes: 0, comments: 0, reposts: 0 };
    for (const item of items) for (const key of Object.keys(metrics)) metrics[key] += item.metrics[key];
    const lastSynced = Math.max(0, ...measuredItems.map((i) => Date.parse(i.collected_at!)));
    return {
      publication_id: p.publication_id,
      title: p.title,
      excerpt: p.excerpt,
      engagement: Number(p.engagement),
      engagement_measured: measuredItems.length,
      metrics,
      measured: Object.fromEntries(Object.keys(metrics).map((k) => [k, measuredItems.length])),
      renditions: items,
      published_at: iso(p.published_at),
      last_synced_at: lastSynced ? new Date(lastSynced).toISOString() : null,
    };
  }

  private insights(total: TotalsRow, top: RenditionRow | null, start: Date, now: number): Insight[] {
    if (total.total === 0) return [];
    const period = {
      aggregation: top ? 'current_snapshot' : 'unavailable',
      filter_start: start.toISOString(),
      filter_end: new Date(now).toISOString(),
      measurement_start: iso(total.first_collected),
      measurement_end: iso(total.last_collected),
    };
    const base = {
      kind: 'most_engagement_actions',
      caveat: 'filtered_content_lifetime_totals',
      metric: 'engagement',
      comparison_sample: total.total,
      destination_count: total.destinations,
      measured_count: total.measured,
      period,
    };
    if (!top) {
      const content = {
        account_id: '',
        platform: '',
        username: '',
        title: '',
        excerpt: '',
        reference: { account_content_id: '', type: 'native' },
        source: 'native',
        published_at: null,
        collected_at: null,
      };
      return [
        { ...base, status: 'unavailable', reason: 'missing_measurements', value: 0, account_id: '', platform: '', username: '', content },
      ];
    }
    return [
      {
        ...base,
        status: 'available',
        reason: '',
        value: Number(top.engagement),
        account_id: top.social_account_id,
        platform: top.platform,
        username: top.username ?? '',
        content: {
          account_id: top.social_account_id,
          platform: top.platform,
          username: top.username ?? '',
          title: top.title,
          excerpt: top.excerpt,
          reference: { account_content_id: top.external_id, type: 'native' },
          source: 'native',
          published_at: iso(top.published_at),
          collected_at: iso(top.collected_at),
        },
      },
    ];
  }
}

function keyOf(sort: Sort, row: { engagement: string; views: string; published_at: Date }): { k: number | string } {
  if (sort === 'newest') return { k: row.published_at.toISOString() };
  return { k: Number(sort === 'views' ? row.views : row.engagement) };
}

/** Followers summed over the accounts for each day any of them has a snapshot. */
function sumSeries(rows: AccountRow[]): SeriesPoint[] {
  const byDay = new Map<string, number>();
  for (const row of rows) for (const p of row.series ?? []) byDay.set(p.date, (byDay.get(p.date) ?? 0) + Number(p.followers));
  return [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([date, value]) => ({ date, value }));
}

function followerTrend(rows: AccountRow[]): AnalyticsTrendPoint[] {
  const byDay = new Map<string, AnalyticsTrendPoint>();
  for (const row of rows) {
    for (const p of row.series ?? []) {
      const point = byDay.get(p.date) ?? { date: p.date, value: 0, items: [] };
      point.value += Number(p.followers);
      point.items.push({ key: row.id, label: row.username, platform: row.platform, publication_id: '', value: Number(p.followers) });
      byDay.set(p.date, point);
    }
  }
  return [...byDay.values()]
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((point) => ({ ...point, items: point.items.sort((a, b) => b.value - a.value || (a.key < b.key ? 1 : -1)).slice(0, 5) }));
}
