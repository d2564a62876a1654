import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProviderAccountSummary, ProviderCallResult, PublishedRenditionSummary } from '@social/contracts';
import { sandboxPostMetrics } from '@social/contracts';
import { openServiceDatabase, problems } from '@social/platform';
import { createTemporaryDatabase, TemporaryDatabase } from '@social/testing';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import type { InsightsConfig } from '../config.js';
import { insightsMigrations } from '../migrations/index.js';
import { rememberRenditions } from '../renditions/rendition-store.js';
import { AccountDisconnectedHandler } from '../tenancy/account-disconnected.handler.js';
import { DailyPlanner } from './daily-planner.js';
import { JobRunner } from './job-runner.js';
import type { ProviderClient } from './provider-client.js';
import { enqueueJob } from './sync-jobs.js';
import { SyncWorker } from './sync-worker.js';

/**
 * The sync jobs against real PostgreSQL, with publishing played by a fake
 * ProviderClient (the NATS boundary): dedupe, outcomes recorded, rate limits
 * honoured, replicas sharing work, a dead replica's job taken over, the
 * daily planner claimed once, and a disconnected account's jobs stopped.
 */
describe('insights sync jobs', () => {
  let db: TemporaryDatabase;
  let dataSource: DataSource;
  const workers: SyncWorker[] = [];
  const logger = pino({ level: 'silent' });
  const config = { INSIGHTS_POLL_MS: 50, INSIGHTS_CONCURRENCY: 4, INSIGHTS_LEASE_MS: 1_000 } as unknown as InsightsConfig;

  /** Publishing as insights sees it: accounts, renditions, and scripted answers per call. */
  const publishing = {
    accounts: [] as ProviderAccountSummary[],
    renditions: [] as PublishedRenditionSummary[],
    calls: [] as string[],
    accountAnswer: undefined as ProviderCallResult<{ followers: number; following: number; posts: number }> | undefined,
    recommendationAnswer: undefined as ProviderCallResult<never[]> | undefined,
    /** When set, account metrics calls hang until released. */
    hold: undefined as Promise<void> | undefined,
  };
  const client = {
    listAccounts: async (request: { workspace_id?: string; account_ids?: string[]; after_id?: string; limit?: number }) => {
      publishing.calls.push('listAccounts');
      const all = publishing.accounts
        .filter(
          (a) =>
            (!request.workspace_id || a.workspace_id === request.workspace_id) &&
            (!request.account_ids || request.account_ids.includes(a.id)),
        )
        .filter((a) => !request.after_id || a.id > request.after_id)
        .sort((x, y) => x.id.localeCompare(y.id));
      const page = all.slice(0, request.limit ?? 500);
      return { accounts: page, next_after_id: all.length > page.length ? page[page.length - 1].id : '' };
    },
    listPublishedRenditions: async (request: { social_account_id?: string; after?: { published_at: string } }) => ({
      renditions: publishing.renditions.filter(
        (r) =>
          (!request.social_account_id || r.social_account_id === request.social_account_id) &&
          (!request.after || r.published_at > request.after.published_at),
      ),
      next_after: null,
    }),
    accountMetrics: async (request: { account_id: string }) => {
      publishing.calls.push(`accountMetrics:${request.account_id}`);
      if (!publishing.accounts.some((a) => a.id === request.account_id))
        throw problems.notFound('No such social account in this workspace.');
      await publishing.hold;
      return publishing.accountAnswer ?? { status: 'ok', data: { followers: 120, following: 15, posts: 7 } };
    },
    postMetrics: async (request: { external_ids: string[] }) => {
      publishing.calls.push(`postMetrics:${request.external_ids.length}`);
      return {
        status: 'ok',
        data: request.external_ids.map((id) => {
          const m = sandboxPostMetrics(id);
          return { external_id: id, views: m.views, likes: m.likes, comments: m.comments, reposts: m.reposts };
        }),
      };
    },
    recommendations: async () => {
      publishing.calls.push('recommendations');
      return publishing.recommendationAnswer ?? { status: 'ok', data: [] };
    },
    follow: async () => ({ status: 'ok', data: { follow_state: 'following' } }),
  } as unknown as ProviderClient;

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  async function until(check: () => boolean | Promise<boolean>, ms = 8_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await sleep(25);
    }
  }

  function worker(renews = true): SyncWorker {
    const created = new SyncWorker(
      dataSource,
      new JobRunner(dataSource, client),
      new DailyPlanner(dataSource, client, logger),
      config,
      logger,
    );
    // The planner is exercised on its own below.
    (created as unknown as { planner: { planIfDue: () => Promise<void> } }).planner = { planIfDue: async () => undefined };
    if (!renews) (created as unknown as { renewLeases: () => Promise<void> }).renewLeases = async () => undefined;
    workers.push(created);
    created.onApplicationBootstrap();
    return created;
  }

  function account(workspaceId = randomUUID()): ProviderAccountSummary {
    const summary = {
      id: randomUUID(),
      workspace_id: workspaceId,
      platform: 'sandbox',
      username: `user_${randomUUID().slice(0, 6)}`,
      display_name: '',
      avatar_url: '',
      status: 'active',
      scopes: [],
      connected_at: new Date().toISOString(),
    };
    publishing.accounts.push(summary);
    return summary;
  }

  const job = async (id: string) =>
    (await dataSource.query(`SELECT state, outcome, run_at, attempts FROM sync_jobs WHERE id = $1`, [id]))[0] as
      { state: string; outcome: string; run_at: Date; attempts: number } | undefined;
  const accountRow = async (id: string) => (await dataSource.query(`SELECT * FROM accounts WHERE id = $1`, [id]))[0];
  const queue = async (kind: 'account_metrics' | 'growth_refresh', a: ProviderAccountSummary) => {
    await dataSource.query(
      `INSERT INTO accounts (id, workspace_id, platform, username) VALUES ($1, $2, 'sandbox', $3) ON CONFLICT DO NOTHING`,
      [a.id, a.workspace_id, a.username],
    );
    return (await enqueueJob(dataSource.manager, { kind, workspaceId: a.workspace_id, accountId: a.id })).id;
  };

  beforeAll(async () => {
    db = await createTemporaryDatabase(
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      'insights_sync_spec',
    );
    dataSource = await openServiceDatabase({ url: db.url, schema: 'insights', entities: [], migrations: insightsMigrations, poolSize: 8 });
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.beforeApplicationShutdown()));
    Object.assign(publishing, {
      accounts: [],
      renditions: [],
      calls: [],
      accountAnswer: undefined,
      recommendationAnswer: undefined,
      hold: undefined,
    });
    await dataSource.query(
      `TRUNCATE sync_jobs, rendition_metrics, renditions, account_snapshots, growth_items, growth_sync_states, accounts, planner_runs`,
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('keeps one queued job per account and kind, and a new one once the first is claimed', async () => {
    const a = account();
    const first = await queue('account_metrics', a);
    expect(await queue('account_metrics', a)).toBe(first);
    const growth = await queue('growth_refresh', a);
    expect(growth).not.toBe(first);
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM sync_jobs`))[0].n).toBe(2);
    worker();
    await until(async () => (await job(first))?.state === 'done');
    const again = await queue('account_metrics', a);
    expect(again).not.toBe(first);
  });

  it('stores the daily snapshot and measures every rendition of the account, discovering those it missed', async () => {
    const a = account();
    const renditions = Array.from({ length: 3 }, (_, i) => ({
      rendition_id: randomUUID(),
      publication_id: randomUUID(),
      workspace_id: a.workspace_id,
      social_account_id: a.id,
      platform: 'sandbox',
      title: `T${i}`,
      content_profile: 'short_text',
      excerpt: `E${i}`,
      external_id: `post-${i}${randomUUID().slice(0, 8)}`,
      external_url: '',
      published_at: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
    }));
    publishing.renditions = renditions;
    const id = await queue('account_metrics', a);
    worker();
    await until(async () => (await job(id))?.state === 'done');
    expect(await accountRow(a.id)).toMatchObject({ status: 'ok', error_code: '', username: a.username });
    const [snapshot] = await dataSource.query(
      `SELECT followers::int, following::int, posts::int FROM account_snapshots WHERE account_id = $1`,
      [a.id],
    );
    expect(snapshot).toEqual({ followers: 120, following: 15, posts: 7 });
    const stored = await dataSource.query(
      `SELECT external_id, views::int, likes::int, comments::int, reposts::int, status FROM renditions ORDER BY external_id`,
    );
    expect(stored).toEqual(
      renditions
        .map((r) => {
          const m = sandboxPostMetrics(r.external_id);
          return { external_id: r.external_id, views: m.views, likes: m.likes, comments: m.comments, reposts: m.reposts, status: 'ok' };
        })
        .sort((x, y) => x.external_id.localeCompare(y.external_id)),
    );
    // One post-metrics call for the three (batched), and the backfilled renditions got their later measurements scheduled.
    expect(publishing.calls.filter((c) => c.startsWith('postMetrics'))).toEqual(['postMetrics:3']);
    const later = await dataSource.query(
      `SELECT count(*)::int AS n FROM sync_jobs WHERE kind = 'rendition_metrics' AND state = 'queued' AND run_at > now()`,
    );
    expect(later[0].n).toBe(9);
  });

  it("records a rate limit and queues the job again at the network's reset time", async () => {
    const a = account();
    const resetAt = new Date(Date.now() + 3_600_000);
    publishing.accountAnswer = { status: 'rate_limited', retry_at: resetAt.toISOString(), code: 'rate_limited', message: 'Slow down.' };
    const id = await queue('account_metrics', a);
    worker();
    await until(async () => (await job(id))?.outcome === 'rate_limited');
    expect(await job(id)).toMatchObject({ state: 'queued', run_at: resetAt, attempts: 1 });
    expect(await accountRow(a.id)).toMatchObject({
      status: 'rate_limited',
      error_code: 'rate_limited',
      error_message: 'Slow down.',
      next_sync_at: resetAt,
    });
    // Still queued: a refresh asked meanwhile answers the same job.
    expect(await queue('account_metrics', a)).toBe(id);
  });

  it('records permission_required with the missing scopes and ends the job; growth records its own outcome', async () => {
    const a = account();
    publishing.accountAnswer = {
      status: 'permission_required',
      missing_scopes: ['read:stats'],
      code: 'scope_missing',
      message: 'Reconnect.',
    };
    publishing.recommendationAnswer = { status: 'unsupported', code: 'no_api', message: 'Not offered.' };
    const metrics = await queue('account_metrics', a);
    const growth = await queue('growth_refresh', a);
    worker();
    await until(async () => (await job(metrics))?.state === 'failed' && (await job(growth))?.state === 'failed');
    expect(await accountRow(a.id)).toMatchObject({
      status: 'permission_required',
      missing_scopes: ['read:stats'],
      error_code: 'scope_missing',
    });
    const [state] = await dataSource.query(`SELECT status, error_code FROM growth_sync_states WHERE social_account_id = $1`, [a.id]);
    expect(state).toEqual({ status: 'failed', error_code: 'no_api' });
  });

  it('an account publishing no longer has ends as not_found', async () => {
    const a = account();
    const id = await queue('account_metrics', a);
    publishing.accounts = [];
    worker();
    await until(async () => (await job(id))?.state === 'failed');
    expect(await accountRow(a.id)).toMatchObject({ status: 'not_found', error_code: 'account_not_found' });
  });

  it('two replicas share the jobs and run each once', async () => {
    const accounts = Array.from({ length: 24 }, () => account());
    const ids = await Promise.all(accounts.map((a) => queue('account_metrics', a)));
    worker();
    worker();
    await until(async () => (await dataSource.query(`SELECT count(*)::int AS n FROM sync_jobs WHERE state = 'done'`))[0].n === ids.length);
    const calls = publishing.calls.filter((c) => c.startsWith('accountMetrics'));
    expect(calls.sort()).toEqual(accounts.map((a) => `accountMetrics:${a.id}`).sort());
  });

  it('takes over a job whose replica stopped renewing its lease', async () => {
    const a = account();
    let release!: () => void;
    publishing.hold = new Promise((resolve) => (release = resolve));
    const id = await queue('account_metrics', a);
    const dying = worker(false);
    await until(() => publishing.calls.includes(`accountMetrics:${a.id}`));
    // The dying replica's lease (1 s) runs out while its call hangs; another replica claims the job again.
    (dying as unknown as { stopped: boolean }).stopped = true;
    worker();
    await until(() => publishing.calls.filter((c) => c === `accountMetrics:${a.id}`).length === 2);
    release();
    await until(async () => (await job(id))?.state === 'done');
    expect((await job(id))!.attempts).toBe(2);
  });

  it('plans the day once across replicas: every account gets its metrics and growth jobs', async () => {
    const accounts = Array.from({ length: 3 }, () => account());
    const old = (await enqueueJob(dataSource.manager, { kind: 'growth_refresh', workspaceId: randomUUID(), accountId: randomUUID() })).id;
    await dataSource.query(`UPDATE sync_jobs SET state = 'done', finished_at = now() - interval '8 days' WHERE id = $1`, [old]);
    const planners = [new DailyPlanner(dataSource, client, logger), new DailyPlanner(dataSource, client, logger)];
    await Promise.all(planners.map((p) => p.planIfDue()));
    const jobs = await dataSource.query(`SELECT kind, account_id FROM sync_jobs ORDER BY kind, account_id`);
    expect(jobs).toEqual(
      ['account_metrics', 'growth_refresh'].flatMap((kind) =>
        accounts.map((a) => ({ kind, account_id: a.id })).sort((x, y) => x.account_id.localeCompare(y.account_id)),
      ),
    );
    expect(await dataSource.query(`SELECT accounts FROM planner_runs`)).toEqual([{ accounts: 3 }]);
    // A job finished over a week ago went with the planning.
    expect(await job(old)).toBeUndefined();
  });

  it('a disconnected account loses its jobs and stored insights; redelivery changes nothing', async () => {
    const a = account();
    const kept = account();
    await queue('account_metrics', a);
    await queue('account_metrics', kept);
    await rememberRenditions(dataSource.manager, [
      {
        rendition_id: randomUUID(),
        publication_id: randomUUID(),
        workspace_id: a.workspace_id,
        social_account_id: a.id,
        platform: 'sandbox',
        title: '',
        content_profile: '',
        excerpt: '',
        external_id: 'post-x',
        external_url: '',
        published_at: new Date().toISOString(),
      },
    ]);
    // Published now: measured at once, +1 h, +24 h, +7 d.
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM sync_jobs WHERE kind = 'rendition_metrics'`))[0].n).toBe(4);
    const handler = new AccountDisconnectedHandler(dataSource);
    const event = { workspace_id: a.workspace_id, social_account_id: a.id, platform: 'sandbox', occurred_at: new Date().toISOString() };
    await handler.handle('durable.publishing.account.disconnected', event);
    await handler.handle('durable.publishing.account.disconnected', event);
    expect(await dataSource.query(`SELECT account_id FROM sync_jobs`)).toEqual([{ account_id: kept.id }]);
    expect(await dataSource.query(`SELECT id FROM renditions`)).toEqual([]);
    expect(await accountRow(a.id)).toBeUndefined();
  });
});
