import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { AnalyticsOverview, Principal } from '@social/contracts';
import { AccessControl, openServiceDatabase, Problem } from '@social/platform';
import { createTemporaryDatabase, TemporaryDatabase } from '@social/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { AccountDirectory } from '../accounts/account-directory.js';
import type { InsightsConfig } from '../config.js';
import { insightsMigrations } from '../migrations/index.js';
import { AnalyticsService } from './analytics.service.js';

const DAY = 86_400_000;
const dateOf = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);

/**
 * E24's arithmetic against real PostgreSQL, with history the e2e suites cannot
 * wait for: snapshots over several days, renditions in this window and the
 * previous one, windows of 7 and 30 days, and cursors bound to their filters.
 */
describe('AnalyticsService (E24) over stored history', () => {
  let db: TemporaryDatabase;
  let dataSource: DataSource;
  let service: AnalyticsService;
  const principal = { userId: randomUUID() } as Principal;
  const workspace = randomUUID();
  const accounts: string[] = [randomUUID(), randomUUID()];
  /** views, likes, comments, reposts; days ago. */
  const renditions = [
    { daysAgo: 1, account: 0, views: 100, likes: 10, comments: 2, reposts: 1 },
    { daysAgo: 1, account: 1, views: 300, likes: 5, comments: 0, reposts: 0 },
    { daysAgo: 10, account: 0, views: 50, likes: 20, comments: 5, reposts: 5 },
    { daysAgo: 40, account: 0, views: 70, likes: 1, comments: 1, reposts: 1 },
    { daysAgo: 12, account: 1, views: 0, likes: 0, comments: 0, reposts: 0, unmeasured: true },
  ].map((r) => ({ ...r, id: randomUUID(), publication: randomUUID() }));

  beforeAll(async () => {
    db = await createTemporaryDatabase(
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      'insights_analytics_spec',
    );
    dataSource = await openServiceDatabase({ url: db.url, schema: 'insights', entities: [], migrations: insightsMigrations, poolSize: 8 });
    const access = { requireWorkspace: async () => ({ workspace_id: workspace, role: 'viewer' }) } as unknown as AccessControl;
    const directory = {
      require: async (_w: string, id: string) => {
        if (!accounts.includes(id)) throw new Problem(404, 'not_found', 'No such account.');
        return { id, workspaceId: workspace, platform: 'sandbox', username: '' };
      },
    } as unknown as AccountDirectory;
    service = new AnalyticsService(dataSource, access, directory, {
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    } as InsightsConfig);
    for (const [index, id] of accounts.entries()) {
      await dataSource.query(
        `INSERT INTO accounts (id, workspace_id, platform, username, status, last_success_at, first_success_at)
         VALUES ($1, $2, 'sandbox', $3, 'ok', now(), now())`,
        [id, workspace, `user${index}`],
      );
    }
    // Account 0: 1000 followers 20 days ago, 1100 five days ago, 1150 today; account 1: one snapshot 40 days ago only.
    for (const [daysAgo, followers] of [
      [20, 1000],
      [5, 1100],
      [0, 1150],
    ]) {
      await dataSource.query(
        `INSERT INTO account_snapshots (account_id, workspace_id, date, followers, following, posts, collected_at)
         VALUES ($1, $2, $3, $4, 10, 3, now())`,
        [accounts[0], workspace, dateOf(daysAgo), followers],
      );
    }
    await dataSource.query(
      `INSERT INTO account_snapshots (account_id, workspace_id, date, followers, following, posts, collected_at)
       VALUES ($1, $2, $3, 500, 1, 1, now() - interval '40 days')`,
      [accounts[1], workspace, dateOf(40)],
    );
    for (const r of renditions) {
      await dataSource.query(
        `INSERT INTO renditions (id, workspace_id, publication_id, social_account_id, platform, title, external_id, published_at, status,
           views, likes, comments, reposts, collected_at)
         VALUES ($1, $2, $3, $4, 'sandbox', $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          r.id,
          workspace,
          r.publication,
          accounts[r.account],
          `Post ${r.daysAgo}`,
          `post-${r.id}`,
          new Date(Date.now() - r.daysAgo * DAY),
          r.unmeasured ? 'pending' : 'ok',
          r.views,
          r.likes,
          r.comments,
          r.reposts,
          r.unmeasured ? null : new Date(),
        ],
      );
    }
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  let overview: AnalyticsOverview;
  beforeEach(async () => {
    overview = await service.overview(principal, { workspace_id: workspace });
  });

  it('sums the window, compares with the previous one, and counts what was measured', () => {
    // In 30 days: renditions 1 d, 1 d, 10 d, 12 d (unmeasured); the one 40 days ago is the previous window.
    expect(overview.summary).toEqual({
      followers: { value: 1150 + 500, delta: 150, measured: 2 },
      views: { value: 450, delta: 450 - 70, measured: 3 },
      engagement: { value: 13 + 5 + 30, delta: 48 - 3, measured: 3 },
      impressions: { value: 0, delta: 0, measured: 0 },
      reach: { value: 0, delta: 0, measured: 0 },
      follower_scope: 'account_wide',
      published: 4,
    });
    expect(overview.content_total).toBe(4);
    expect(overview.publication_total).toBe(4);
  });

  it("follows each account's snapshots in the window: series, delta, latest counters", () => {
    const first = overview.accounts.find((a) => a.id === accounts[0])!;
    expect(first.follower_series).toEqual([
      { date: dateOf(20), value: 1000 },
      { date: dateOf(5), value: 1100 },
      { date: dateOf(0), value: 1150 },
    ]);
    expect(first.follower_delta).toBe(150);
    expect(first.metrics).toEqual({ followers: 1150, following: 10, posts: 3 });
    const second = overview.accounts.find((a) => a.id === accounts[1])!;
    // No snapshot in the window: no series, no delta, but the latest counters stand.
    expect(second).toMatchObject({ follower_series: [], follower_delta: 0, metrics: { followers: 500, following: 1, posts: 1 } });
    expect(overview.follower_series).toEqual(first.follower_series);
    expect(overview.trends.followers.map((p) => [p.date, p.value, p.items.map((i) => i.key)])).toEqual([
      [dateOf(20), 1000, [accounts[0]]],
      [dateOf(5), 1100, [accounts[0]]],
      [dateOf(0), 1150, [accounts[0]]],
    ]);
  });

  it('trends per publishing day, largest contributors first', () => {
    const yesterday = dateOf(1);
    const [a, b] = renditions;
    expect(overview.trends.views.find((p) => p.date === yesterday)).toEqual({
      date: yesterday,
      value: 400,
      items: [
        { key: b.id, label: 'Post 1', platform: 'sandbox', publication_id: b.publication, value: 300 },
        { key: a.id, label: 'Post 1', platform: 'sandbox', publication_id: a.publication, value: 100 },
      ],
    });
    expect(overview.trends.engagement.map((p) => [p.date, p.value])).toEqual([
      [dateOf(12), 0],
      [dateOf(10), 30],
      [yesterday, 18],
    ]);
  });

  it('a 7-day window keeps only the last week; the insight names the most engaging content', async () => {
    const week = await service.overview(principal, { workspace_id: workspace, days: 7 });
    expect(week.content.map((c) => c.rendition_id).sort()).toEqual([renditions[0].id, renditions[1].id].sort());
    // The previous week (8–14 days ago) had the 10-day-old rendition (engagement 30, views 50) and the unmeasured one.
    expect(week.summary.engagement).toEqual({ value: 18, delta: 18 - 30, measured: 2 });
    expect(week.summary.views).toEqual({ value: 400, delta: 350, measured: 2 });
    expect(overview.insights).toEqual([
      expect.objectContaining({
        status: 'available',
        value: 30,
        account_id: accounts[0],
        comparison_sample: 4,
        measured_count: 3,
        destination_count: 2,
      }),
    ]);
    expect(overview.content.find((c) => c.rendition_id === renditions[4].id)).toMatchObject({
      metric_availability: 'pending',
      stale: true,
      collected_at: null,
    });
  });

  it('pages content and publications with cursors bound to the filters, and refuses the rest', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await service.overview(principal, { workspace_id: workspace, sort: 'views', limit: 1, cursor });
      seen.push(...page.content.map((c) => c.rendition_id));
      cursor = page.content_next_cursor || undefined;
    } while (cursor);
    expect(seen).toEqual(
      overview.content
        .slice()
        .sort((x, y) => y.metrics.views - x.metrics.views || (x.rendition_id < y.rendition_id ? 1 : -1))
        .map((c) => c.rendition_id),
    );
    const newest = await service.overview(principal, { workspace_id: workspace, sort: 'newest', limit: 2 });
    const next = await service.overview(principal, {
      workspace_id: workspace,
      sort: 'newest',
      limit: 2,
      cursor: newest.publication_next_cursor,
    });
    expect([...newest.publications, ...next.publications].map((p) => p.publication_id)).toHaveLength(4);
    expect(next.content.map((c) => c.rendition_id)).toEqual(newest.content.map((c) => c.rendition_id));
    const refused = (cursor: string, filters: object) =>
      service.overview(principal, { workspace_id: workspace, ...filters, cursor }).then(
        () => null,
        (error: Problem) => error.toPayload(),
      );
    expect(await refused(newest.publication_next_cursor, { sort: 'views' })).toMatchObject({
      status: 422,
      errors: [{ location: 'query.cursor' }],
    });
    expect(await refused(newest.publication_next_cursor, { sort: 'newest', account_id: accounts[0] })).toMatchObject({ status: 422 });
    await expect(service.overview(principal, { workspace_id: workspace, account_id: randomUUID() })).rejects.toMatchObject({ status: 404 });
  });

  it('shrinks pages that would not fit in one NATS message; their cursors continue after the last item kept', async () => {
    const budget = AnalyticsService.answerBudgetBytes;
    AnalyticsService.answerBudgetBytes = 12_000;
    try {
      const fitted = await service.overview(principal, { workspace_id: workspace, sort: 'views' });
      expect(Buffer.byteLength(JSON.stringify(fitted))).toBeLessThanOrEqual(12_000 + 8_000);
      expect(fitted.content.length).toBeLessThan(4);
      expect(fitted.content_next_cursor).not.toBe('');
      const seen = fitted.content.map((c) => c.rendition_id);
      let cursor = fitted.content_next_cursor;
      while (cursor) {
        const page = await service.overview(principal, { workspace_id: workspace, sort: 'views', cursor });
        seen.push(...page.content.map((c) => c.rendition_id));
        cursor = page.content_next_cursor;
      }
      AnalyticsService.answerBudgetBytes = budget;
      const whole = await service.overview(principal, { workspace_id: workspace, sort: 'views' });
      expect(seen).toEqual(whole.content.map((c) => c.rendition_id));
    } finally {
      AnalyticsService.answerBudgetBytes = budget;
    }
  });
});
