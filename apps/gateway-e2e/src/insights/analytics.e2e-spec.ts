import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { sandboxAccountMetrics, sandboxPostMetrics } from '@social/contracts';
import { call, eventually, expectProblem, locations, RFC3339_MS } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { analyticsUrl, analyticsWhen, publishNowTo, sandboxExternalId } from '../support/insights.js';
import { connectSandboxAccount } from '../support/publishing.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HOUR = 3_600_000;
const today = () => new Date().toISOString().slice(0, 10);
const engagementOf = (m: { likes: number; comments: number; reposts: number }) => m.likes + m.comments + m.reposts;

describe('insights: stored analytics (E24, docs/decisions.md)', () => {
  const db = testDatabase();

  /**
   * A tenant with two sandbox accounts; publication A goes to both, B to the
   * first only (three renditions). Insights measures each at once (the
   * published event), and the refresh reads the accounts' counters.
   */
  async function measured() {
    const tenant = await createTenant();
    const names = [`alpha_${randomUUID().slice(0, 8)}`, `beta_${randomUUID().slice(0, 8)}`];
    const accounts = [
      await connectSandboxAccount(tenant.owner.token, tenant.workspaceId, names[0]),
      await connectSandboxAccount(tenant.owner.token, tenant.workspaceId, names[1]),
    ];
    const a = await publishNowTo(tenant.owner.token, tenant.workspaceId, [accounts[0].id, accounts[1].id], 'Publication A for analytics');
    const b = await publishNowTo(tenant.owner.token, tenant.workspaceId, [accounts[0].id], 'Publication B for analytics');
    const refresh = await call('POST', '/analytics/refresh', { token: tenant.owner.token, body: { workspace_id: tenant.workspaceId } });
    expect(refresh.status).toBe(202);
    const body = await analyticsWhen(
      tenant.owner.token,
      analyticsUrl(tenant.workspaceId),
      // The refresh's account syncs ended too (coverage `complete`, not `running`): the published events' measurements
      // can be in before them.
      (o) =>
        o.accounts.length === 2 &&
        o.accounts.every((x: any) => x.status === 'ok') &&
        o.coverage.every((c: any) => c.status === 'complete') &&
        o.content.length === 3 &&
        o.content.every((c: any) => c.metric_availability === 'available'),
      20_000,
    );
    const renditions = [...a.renditions, ...b.renditions].map((r: any) => ({ ...r, metrics: sandboxPostMetrics(r.external_id) }));
    return { ...tenant, names, accounts, a, b, renditions, body };
  }

  it('after publishing to the sandbox and a refresh, shows the exact counters of accounts and content', async () => {
    const { owner, workspaceId, names, accounts, a, b, renditions, body } = await measured();
    await expectMatchesOwnSchema(body, 'AnalyticsOverview');
    const accountMetrics = names.map((n) => sandboxAccountMetrics(sandboxExternalId(n)));
    const views = renditions.reduce((sum, r) => sum + r.metrics.views, 0);
    const engagement = renditions.reduce((sum, r) => sum + engagementOf(r.metrics), 0);
    const followers = accountMetrics[0].followers + accountMetrics[1].followers;
    expect(body).toMatchObject({
      range_days: 30,
      source: 'all',
      account_growth_scope: 'account_wide',
      generated_at: expect.stringMatching(RFC3339_MS),
      last_synced_at: expect.stringMatching(RFC3339_MS),
      content_total: 3,
      publication_total: 2,
      content_next_cursor: '',
      publication_next_cursor: '',
      follower_series: [{ date: today(), value: followers }],
      summary: {
        followers: { value: followers, delta: 0, measured: 2 },
        views: { value: views, delta: views, measured: 3 },
        engagement: { value: engagement, delta: engagement, measured: 3 },
        impressions: { value: 0, delta: 0, measured: 0 },
        reach: { value: 0, delta: 0, measured: 0 },
        follower_scope: 'account_wide',
        published: 3,
      },
    });
    for (const [index, account] of accounts.entries()) {
      const got = body.accounts.find((x: any) => x.id === account.id);
      expect(got).toEqual({
        id: account.id,
        platform: 'sandbox',
        username: names[index],
        avatar_url: '',
        status: 'ok',
        error_code: '',
        error_message: '',
        account_supported: true,
        content_supported: true,
        stale: false,
        follower_delta: 0,
        follower_series: [{ date: today(), value: accountMetrics[index].followers }],
        last_synced_at: expect.stringMatching(RFC3339_MS),
        next_sync_at: expect.stringMatching(RFC3339_MS),
        metrics: accountMetrics[index],
        metric_metadata: Object.fromEntries(
          ['followers', 'following', 'posts'].map((m) => [
            m,
            {
              aggregation: 'current_snapshot',
              period_start: expect.stringMatching(RFC3339_MS),
              period_end: expect.stringMatching(RFC3339_MS),
              scale: 1,
              source: 'sandbox',
              unit: 'count',
            },
          ]),
        ),
        missing_account_scopes: [],
        missing_content_scopes: [],
      });
      const coverage = body.coverage.find((c: any) => c.account_id === account.id);
      expect(coverage).toMatchObject({
        platform: 'sandbox',
        status: 'complete',
        failure_code: '',
        initial_items_discovered: index === 0 ? 2 : 1,
        initial_completed_at: expect.stringMatching(RFC3339_MS),
        last_success_at: expect.stringMatching(RFC3339_MS),
      });
    }
    // Content: highest engagement first, each with the sandbox's counters.
    const byEngagement = [...renditions].sort((x, y) => engagementOf(y.metrics) - engagementOf(x.metrics) || (x.id < y.id ? 1 : -1));
    expect(body.content.map((c: any) => c.rendition_id)).toEqual(byEngagement.map((r) => r.id));
    for (const r of renditions) {
      const item = body.content.find((c: any) => c.rendition_id === r.id);
      const values = { views: r.metrics.views, likes: r.metrics.likes, comments: r.metrics.comments, reposts: r.metrics.reposts };
      expect(item).toMatchObject({
        publication_id: r.publication_id,
        account_id: r.social_account_id,
        platform: 'sandbox',
        username: names[accounts.findIndex((x) => x.id === r.social_account_id)],
        external_url: r.external_url,
        source: 'native',
        reference: { account_content_id: r.external_id, type: 'native' },
        status: 'ok',
        metric_availability: 'available',
        engagement: engagementOf(r.metrics),
        metrics: values,
        stale: false,
        published_at: expect.stringMatching(RFC3339_MS),
        collected_at: expect.stringMatching(RFC3339_MS),
      });
      expect(item.measurements.views).toEqual({
        availability: 'available',
        collected_at: item.collected_at,
        metadata: item.metric_metadata.views,
        value: r.metrics.views,
      });
      // The next measurement is the +1 h one (the immediate one ran).
      expect(Date.parse(item.next_sync_at)).toBe(Date.parse(item.published_at) + HOUR);
    }
    // Each rendition is measured at once, then +1 h, +24 h and +7 d after it went live.
    const scheduled = await db.query(
      `SELECT rendition_id, run_at FROM insights.sync_jobs WHERE kind = 'rendition_metrics' AND state = 'queued' AND rendition_id = $1
       ORDER BY run_at`,
      [renditions[0].id],
    );
    const published = Date.parse(body.content.find((c: any) => c.rendition_id === renditions[0].id).published_at);
    expect(scheduled.rows.map((row: any) => row.run_at.getTime() - published)).toEqual([HOUR, 24 * HOUR, 7 * 24 * HOUR]);
    // Publications: A (two renditions) and B, with their totals.
    const pubA = body.publications.find((p: any) => p.publication_id === a.id);
    const aRenditions = renditions.filter((r) => r.publication_id === a.id);
    expect(pubA).toMatchObject({
      engagement: aRenditions.reduce((s, r) => s + engagementOf(r.metrics), 0),
      engagement_measured: 2,
      metrics: { views: aRenditions.reduce((s, r) => s + r.metrics.views, 0) },
      measured: { views: 2, likes: 2, comments: 2, reposts: 2 },
      published_at: expect.stringMatching(RFC3339_MS),
    });
    expect(pubA.renditions.map((r: any) => r.rendition_id).sort()).toEqual(aRenditions.map((r) => r.id).sort());
    expect(body.publications.find((p: any) => p.publication_id === b.id).renditions).toHaveLength(1);
    // Trends: everything was published today.
    expect(body.trends.views).toEqual([{ date: today(), value: views, items: expect.any(Array) }]);
    expect(body.trends.engagement[0]).toMatchObject({ date: today(), value: engagement });
    expect(body.trends.engagement[0].items[0]).toEqual({
      key: byEngagement[0].id,
      label: expect.any(String),
      platform: 'sandbox',
      publication_id: byEngagement[0].publication_id,
      value: engagementOf(byEngagement[0].metrics),
    });
    expect(body.trends.followers).toEqual([{ date: today(), value: followers, items: expect.any(Array) }]);
    // The insight: the content with the most engagement actions.
    expect(body.insights).toEqual([
      expect.objectContaining({
        kind: 'most_engagement_actions',
        status: 'available',
        reason: '',
        caveat: 'filtered_content_lifetime_totals',
        metric: 'engagement',
        value: engagementOf(byEngagement[0].metrics),
        account_id: byEngagement[0].social_account_id,
        comparison_sample: 3,
        measured_count: 3,
        destination_count: 2,
      }),
    ]);
    // One account only: its content and its totals; followers stay account-wide for that account.
    const one = await call('GET', analyticsUrl(workspaceId, { account_id: accounts[1].id }), { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body.accounts.map((x: any) => x.id)).toEqual([accounts[1].id]);
    expect(one.body.content.map((c: any) => c.rendition_id)).toEqual(
      renditions.filter((r) => r.social_account_id === accounts[1].id).map((r) => r.id),
    );
    expect(one.body.summary.followers.value).toBe(accountMetrics[1].followers);
    // external: nothing collected, account growth unchanged.
    const external = await call('GET', analyticsUrl(workspaceId, { source: 'external', days: 7 }), { token: owner.token });
    expect(external.body).toMatchObject({
      source: 'external',
      range_days: 7,
      content: [],
      content_total: 0,
      publications: [],
      publication_total: 0,
      insights: [],
    });
    expect(external.body.summary.followers.value).toBe(followers);
  });

  it('sorts and pages content and publications with cursors bound to their filters', async () => {
    const { owner, workspaceId, renditions, body } = await measured();
    const byViews = [...renditions].sort((x, y) => y.metrics.views - x.metrics.views || (x.id < y.id ? 1 : -1)).map((r) => r.id);
    const views = await call('GET', analyticsUrl(workspaceId, { sort: 'views' }), { token: owner.token });
    expect(views.body.content.map((c: any) => c.rendition_id)).toEqual(byViews);
    const newest = await call('GET', analyticsUrl(workspaceId, { sort: 'newest' }), { token: owner.token });
    const publishedTimes = newest.body.content.map((c: any) => Date.parse(c.published_at));
    expect(publishedTimes).toEqual([...publishedTimes].sort((x, y) => y - x));

    // Content, one at a time: every rendition once, publications stay on their first page.
    const seen: string[] = [];
    let cursor = '';
    let firstPage: any;
    for (let page = 0; page < 5; page += 1) {
      const response = await call('GET', analyticsUrl(workspaceId, { limit: 1, ...(cursor ? { cursor } : {}) }), { token: owner.token });
      expect(response.status).toBe(200);
      firstPage ??= response.body;
      seen.push(...response.body.content.map((c: any) => c.rendition_id));
      expect(response.body.publications.map((p: any) => p.publication_id)).toEqual(
        firstPage.publications.map((p: any) => p.publication_id),
      );
      cursor = response.body.content_next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(body.content.map((c: any) => c.rendition_id));
    // Publications, one at a time: content stays on its first page.
    const second = await call('GET', analyticsUrl(workspaceId, { limit: 1, cursor: firstPage.publication_next_cursor }), {
      token: owner.token,
    });
    expect(second.status).toBe(200);
    expect(second.body.content.map((c: any) => c.rendition_id)).toEqual(firstPage.content.map((c: any) => c.rendition_id));
    expect([firstPage.publications[0].publication_id, second.body.publications[0].publication_id]).toEqual(
      body.publications.map((p: any) => p.publication_id),
    );
    expect(second.body.publication_next_cursor).toBe('');

    // A cursor works only with the filters it was issued for; an edited one is refused.
    const issued = firstPage.content_next_cursor;
    const others: Array<Record<string, string | number>> = [
      { sort: 'views' },
      { days: 7 },
      { source: 'native' },
      { account_id: renditions[0].social_account_id },
    ];
    for (const other of others) {
      const refused = await call('GET', analyticsUrl(workspaceId, { limit: 1, cursor: issued, ...other }), { token: owner.token });
      expect(locations(expectProblem(refused, 422))).toEqual(['query.cursor']);
    }
    const tampered = `${issued.slice(0, -2)}${issued.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(
      locations(expectProblem(await call('GET', analyticsUrl(workspaceId, { cursor: tampered }), { token: owner.token }), 422)),
    ).toEqual(['query.cursor']);
    const foreign = await createTenant();
    const theirs = await call('GET', analyticsUrl(foreign.workspaceId, { limit: 1, cursor: issued }), { token: foreign.owner.token });
    expect(locations(expectProblem(theirs, 422))).toEqual(['query.cursor']);
  });

  it('refuses every invalid query with its location, an account not in the workspace with 404, and outsiders with 403', async () => {
    const tenant = await createTenant();
    const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const get = (query: Record<string, string | number>) =>
      call('GET', analyticsUrl(tenant.workspaceId, query), { token: tenant.owner.token });
    for (const [query, location] of [
      [{ days: 14 }, 'query.days'],
      [{ days: 'thirty' }, 'query.days'],
      [{ limit: 0 }, 'query.limit'],
      [{ limit: 101 }, 'query.limit'],
      [{ limit: 1.5 }, 'query.limit'],
      [{ source: 'everything' }, 'query.source'],
      [{ sort: 'likes' }, 'query.sort'],
      [{ account_id: 'nope' }, 'query.account_id'],
      [{ cursor: 'x'.repeat(501) }, 'query.cursor'],
      [{ cursor: 'garbage' }, 'query.cursor'],
      [{ color: 'red' }, 'query.color'],
    ] as const) {
      // Every problem found names the parameter (a non-integer limit breaks several of its rules at once).
      expect([...new Set(locations(expectProblem(await get(query as Record<string, string | number>), 422)))]).toEqual([location]);
    }
    expect(locations(expectProblem(await call('GET', '/analytics', { token: tenant.owner.token }), 422))).toEqual(['query.workspace_id']);
    expectProblem(await get({ account_id: randomUUID() }), 404, 'not_found');
    const other = await createTenant();
    const theirs = await connectSandboxAccount(other.owner.token, other.workspaceId);
    expectProblem(await get({ account_id: theirs.id }), 404, 'not_found');
    expectProblem(await call('GET', analyticsUrl(other.workspaceId), { token: tenant.owner.token }), 403, 'workspace_forbidden');
    const refresh = (body: unknown) => call('POST', '/analytics/refresh', { token: tenant.owner.token, body });
    expect(locations(expectProblem(await refresh({}), 422))).toEqual(['body.workspace_id']);
    expect(locations(expectProblem(await refresh({ workspace_id: tenant.workspaceId, account_id: account.id, days: 7 }), 422))).toEqual([
      'body.days',
    ]);
    expectProblem(await refresh({ workspace_id: tenant.workspaceId, account_id: theirs.id }), 404);
    expectProblem(await refresh({ workspace_id: other.workspaceId }), 403);
    // A valid empty workspace answers a complete, empty overview.
    const empty = await call('GET', analyticsUrl(other.workspaceId), { token: other.owner.token });
    expect(empty.status).toBe(200);
    await expectMatchesOwnSchema(empty.body, 'AnalyticsOverview');
    expect(empty.body).toMatchObject({ content: [], content_total: 0, publications: [], insights: [], last_synced_at: null });
  });

  it('viewers read analytics but cannot queue a refresh; a refresh of one account answers its queued job', async () => {
    const tenant = await createTenant();
    const account = await connectSandboxAccount(tenant.owner.token, tenant.workspaceId);
    const viewer = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
    expect((await call('GET', analyticsUrl(tenant.workspaceId), { token: viewer.token })).status).toBe(200);
    expectProblem(
      await call('POST', '/analytics/refresh', { token: viewer.token, body: { workspace_id: tenant.workspaceId } }),
      403,
      'insufficient_role',
    );
    const accepted = await call('POST', '/analytics/refresh', {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId, account_id: account.id },
    });
    expect(accepted.status).toBe(202);
    await expectMatchesOwnSchema(accepted.body, 'SyncJobAccepted');
    expect(accepted.body).toMatchObject({ job_id: expect.stringMatching(UUID), status: 'queued' });
    const job = await db.query(`SELECT kind, account_id FROM insights.sync_jobs WHERE id = $1`, [accepted.body.job_id]);
    expect(job.rows).toEqual([{ kind: 'account_metrics', account_id: account.id }]);
  });

  it('disconnecting an account stops its jobs and drops its analytics; deleting the organization purges every insights row', async () => {
    const { owner, workspaceId, organizationId, accounts } = await measured();
    const count = async (sql: string, values: unknown[]) => (await db.query(sql, values)).rows[0].n as number;
    expect(
      await count(`SELECT count(*)::int AS n FROM insights.sync_jobs WHERE account_id = $1 AND state = 'queued'`, [accounts[1].id]),
    ).toBeGreaterThan(0);
    expect((await call('DELETE', `/social-accounts/${accounts[1].id}`, { token: owner.token })).status).toBe(204);
    await eventually(async () => {
      expect(await count(`SELECT count(*)::int AS n FROM insights.sync_jobs WHERE account_id = $1`, [accounts[1].id])).toBe(0);
      expect(await count(`SELECT count(*)::int AS n FROM insights.renditions WHERE social_account_id = $1`, [accounts[1].id])).toBe(0);
    }, 10_000);
    const after = await call('GET', analyticsUrl(workspaceId), { token: owner.token });
    expect(after.body.accounts.map((x: any) => x.id)).toEqual([accounts[0].id]);
    expect(after.body.content_total).toBe(2);

    const tables = ['sync_jobs', 'rendition_metrics', 'renditions', 'account_snapshots', 'growth_items', 'growth_sync_states', 'accounts'];
    const left = async () => {
      let total = 0;
      for (const table of tables)
        total += await count(`SELECT count(*)::int AS n FROM insights.${table} WHERE workspace_id = $1`, [workspaceId]);
      return total;
    };
    expect(await left()).toBeGreaterThan(0);
    // E10 counts the queued measurements (+1 h, +24 h, +7 d of the two renditions left) as pending jobs; they do not block.
    const preview = await call('GET', `/organizations/${organizationId}/deletion-preview`, { token: owner.token });
    expect(preview.status).toBe(200);
    expect(preview.body.pending_work.pending_jobs).toBeGreaterThanOrEqual(6);
    expect(preview.body.blockers).toEqual([]);
    expect((await call('DELETE', `/organizations/${organizationId}`, { token: owner.token })).status).toBe(202);
    await eventually(async () => expect(await left()).toBe(0), 15_000);
  });
});
