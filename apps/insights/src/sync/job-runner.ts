import { Injectable } from '@nestjs/common';
import {
  GROWTH_RECOMMENDATIONS_LIMIT,
  type ProviderCallResult,
  type ProviderPostMetrics,
  type PublishedRenditionSummary,
} from '@social/contracts';
import { preparedQuery, Problem } from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { rememberAccounts } from '../accounts/account-directory.js';
import { rememberRenditions } from '../renditions/rendition-store.js';
import { ProviderClient } from './provider-client.js';
import type { AccountRow, AccountSyncStatus, RenditionRow } from '../analytics/analytics.row.js';
import type { FollowState, GrowthItemRow, GrowthSyncStatus } from '../growth/growth.row.js';
import type { ClaimedJobRow } from './sync-job.row.js';

/** A rendition to measure: its id and its post on the network. */
type MeasuredRenditionRow = Pick<RenditionRow, 'id' | 'external_id'>;

/**
 * How a job ends: done, or queued again at `retryAt` (the network's reset time, or a backoff). `recorded`: the job's
 * end was already written with its data (the worker writes nothing more).
 */
export type JobEnd = { outcome: string; retryAt?: Date; recorded?: boolean };

type Failure = Exclude<ProviderCallResult<unknown>, { status: 'ok' }>;
/** Post ids per post-metrics call (the internal contract's bound). */
const POST_BATCH = 100;
const PAGE = 500;

/** Retry after a failure that is not the network's answer (publishing or NATS unreachable): 2 s doubling to 10 min. */
export const backoffAt = (attempts: number): Date => new Date(Date.now() + Math.min(600_000, 2_000 * 2 ** Math.min(attempts, 9)));
const retryAtOf = (failure: Failure, attempts: number): Date | undefined => {
  if (failure.status !== 'rate_limited' && failure.status !== 'temporarily_unavailable') return undefined;
  const at = Date.parse(failure.retry_at);
  return Number.isFinite(at) && at > Date.now() ? new Date(at) : backoffAt(attempts);
};
/** Analytics account status for a failed call (docs/decisions.md); a network down for now is `failed` until it answers again. */
const accountStatusOf = (failure: Failure): AccountSyncStatus => (failure.status === 'temporarily_unavailable' ? 'failed' : failure.status);
/** Growth sync status for a failed call (docs/decisions.md). */
const growthStatusOf = (failure: Failure): GrowthSyncStatus =>
  failure.status === 'unsupported' || failure.status === 'not_found' ? 'failed' : failure.status;

/** The account's growth sync state, created on first use, now in `status`. */
export async function ensureGrowthState(db: EntityManager, accountId: string, status: GrowthSyncStatus): Promise<void> {
  await db.query(
    `INSERT INTO growth_sync_states (id, workspace_id, social_account_id, platform, status, created_at, updated_at, last_attempted_at)
     SELECT $2, workspace_id, id, platform, $3, now(), now(), CASE WHEN $3 = 'refreshing' THEN now() END FROM accounts WHERE id = $1
     ON CONFLICT (social_account_id) DO UPDATE SET status = excluded.status, updated_at = now(),
       last_attempted_at = coalesce(excluded.last_attempted_at, growth_sync_states.last_attempted_at)`,
    [accountId, uuidv7(), status],
  );
}

/** A follow that failed: pending until a retry when one is due (rate limit, outage), else failed. */
const followStateAfter = (retryAt: Date | undefined): FollowState => (retryAt ? 'pending' : 'failed');

/** "No such account in this workspace" from publishing: the account is gone. */
const isGone = (error: unknown) => error instanceof Problem && error.status === 404;

/**
 * Runs one claimed sync job: asks publishing to call the network, and records
 * the outcome (data, sync status) in one transaction that holds only while
 * the job's lease is still ours (a job taken over by another replica, or
 * deleted because its account was disconnected, writes nothing).
 */
@Injectable()
export class JobRunner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly provider: ProviderClient,
  ) {}

  async run(job: ClaimedJobRow): Promise<JobEnd> {
    try {
      switch (job.kind) {
        case 'growth_refresh':
          return await this.growthRefresh(job);
        case 'account_metrics':
          return await this.accountMetrics(job);
        case 'rendition_metrics':
          return await this.renditionMetrics(job);
        case 'follow':
          return await this.follow(job);
      }
    } catch (error) {
      if (isGone(error)) return this.accountGone(job);
      throw error;
    }
  }

  /** Runs `write` only while the job is still ours (its row locked meanwhile). */
  private ours(job: ClaimedJobRow, write: (db: EntityManager) => Promise<void>): Promise<boolean> {
    return this.dataSource.transaction(async (db) => {
      // Named statements here and in `measure`: every rendition that goes live is measured at once.
      const rows = await preparedQuery<Pick<ClaimedJobRow, 'id'>>(
        db,
        'insights.sync.lock-job',
        `SELECT id FROM sync_jobs WHERE id = $1 AND lease_owner = $2 FOR UPDATE`,
        [job.id, job.lease],
      );
      if (rows.length === 0) return false;
      await write(db);
      return true;
    });
  }

  private async accountGone(job: ClaimedJobRow): Promise<JobEnd> {
    await this.ours(job, async (db) => {
      await db.query(
        `UPDATE accounts SET status = 'not_found', error_code = 'account_not_found', error_message = $2, last_attempted_at = now()
         WHERE id = $1`,
        [job.account_id, 'The account is no longer connected to the workspace.'],
      );
    });
    return { outcome: 'not_found' };
  }

  private async growthRefresh(job: ClaimedJobRow): Promise<JobEnd> {
    await ensureGrowthState(this.dataSource.manager, job.account_id, 'refreshing');
    const result = await this.provider.recommendations({
      workspace_id: job.workspace_id,
      account_id: job.account_id,
      limit: GROWTH_RECOMMENDATIONS_LIMIT,
    });
    if (result.status !== 'ok') {
      const retryAt = retryAtOf(result, job.attempts);
      await this.ours(job, (db) =>
        db.query(
          `UPDATE growth_sync_states SET status = $2, error_code = $3, error_message = $4, updated_at = now() WHERE social_account_id = $1`,
          [job.account_id, growthStatusOf(result), result.code, result.message],
        ),
      );
      return { outcome: result.status, retryAt };
    }
    const generation = uuidv7();
    await this.ours(job, async (db) => {
      const [account] = await db.query<Array<Pick<AccountRow, 'platform'>>>(`SELECT platform FROM accounts WHERE id = $1`, [
        job.account_id,
      ]);
      if (!account) return;
      for (const r of result.data) {
        await db.query(
          `INSERT INTO growth_items (id, workspace_id, social_account_id, platform, generation_id, remote_account_id, handle, display_name,
                                     avatar_url, bio, profile_url, followers_count, following_count, mutual_count, mutuals, score,
                                     signals, created_at, last_seen_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, now(), now(), now())
           ON CONFLICT (social_account_id, remote_account_id) DO UPDATE SET
             generation_id = excluded.generation_id, handle = excluded.handle, display_name = excluded.display_name,
             avatar_url = excluded.avatar_url, bio = excluded.bio, profile_url = excluded.profile_url,
             followers_count = excluded.followers_count, following_count = excluded.following_count, mutual_count = excluded.mutual_count,
             mutuals = excluded.mutuals, score = excluded.score, signals = excluded.signals, last_seen_at = now(), updated_at = now()`,
          [
            uuidv7(),
            job.workspace_id,
            job.account_id,
            account.platform,
            generation,
            r.remote_account_id,
            r.handle,
            r.display_name,
            r.avatar_url,
            r.bio,
            r.profile_url,
            r.followers_count,
            r.following_count,
            r.mutual_count,
            // A publishing replica from before mutuals sends none.
            JSON.stringify(r.mutuals ?? []),
            r.score,
            r.signals,
          ],
        );
      }
      await db.query(
        `UPDATE growth_sync_states SET status = 'ok', current_generation_id = $2, error_code = '', error_message = '',
           last_success_at = now(), updated_at = now()
          WHERE social_account_id = $1`,
        [job.account_id, generation],
      );
    });
    return { outcome: 'ok' };
  }

  /**
   * The account's counters (one snapshot per day) and the counters of every
   * rendition of the account insights knows; renditions published while
   * insights was not listening are discovered first (backfill through
   * publishing's published-renditions listing).
   */
  private async accountMetrics(job: ClaimedJobRow): Promise<JobEnd> {
    await this.dataSource.query(`UPDATE accounts SET last_attempted_at = now() WHERE id = $1`, [job.account_id]);
    const listed = await this.provider.listAccounts({ workspace_id: job.workspace_id, account_ids: [job.account_id], limit: 1 });
    if (!listed.accounts.some((a) => a.id === job.account_id)) return this.accountGone(job);
    await rememberAccounts(this.dataSource.manager, listed.accounts);
    await this.discoverRenditions(job);
    const result = await this.provider.accountMetrics({ workspace_id: job.workspace_id, account_id: job.account_id });
    if (result.status !== 'ok') {
      const retryAt = retryAtOf(result, job.attempts);
      await this.ours(job, (db) =>
        db.query(
          `UPDATE accounts SET status = $2, error_code = $3, error_message = $4, missing_scopes = $5, next_sync_at = $6 WHERE id = $1`,
          [
            job.account_id,
            accountStatusOf(result),
            result.code,
            result.message,
            result.status === 'permission_required' ? result.missing_scopes : [],
            retryAt ?? null,
          ],
        ),
      );
      return { outcome: result.status, retryAt };
    }
    const metrics = result.data;
    await this.ours(job, async (db) => {
      await db.query(
        `INSERT INTO account_snapshots (account_id, workspace_id, date, followers, following, posts, collected_at)
         SELECT id, workspace_id, (now() AT TIME ZONE 'UTC')::date, $2, $3, $4, now() FROM accounts WHERE id = $1
         ON CONFLICT (account_id, date) DO UPDATE SET followers = excluded.followers, following = excluded.following,
           posts = excluded.posts, collected_at = excluded.collected_at`,
        [job.account_id, metrics.followers, metrics.following, metrics.posts],
      );
      await db.query(
        `UPDATE accounts SET status = 'ok', error_code = '', error_message = '', missing_scopes = '{}', last_success_at = now(),
                first_success_at = coalesce(first_success_at, now()),
                next_sync_at = date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 day'
          WHERE id = $1`,
        [job.account_id],
      );
    });
    const renditions = await this.dataSource.query<MeasuredRenditionRow[]>(
      `SELECT id, external_id FROM renditions WHERE social_account_id = $1 ORDER BY published_at DESC`,
      [job.account_id],
    );
    for (let start = 0; start < renditions.length; start += POST_BATCH) {
      const batch = renditions.slice(start, start + POST_BATCH);
      const end = await this.measure(job, batch);
      if (end) return end;
    }
    return { outcome: 'ok' };
  }

  private async discoverRenditions(job: ClaimedJobRow): Promise<void> {
    const [last] = await this.dataSource.query<Array<Pick<RenditionRow, 'published_at' | 'id'>>>(
      `SELECT published_at, id FROM renditions WHERE social_account_id = $1 ORDER BY published_at DESC, id DESC LIMIT 1`,
      [job.account_id],
    );
    let after: { published_at: string; rendition_id: string } | null = last
      ? { published_at: last.published_at.toISOString(), rendition_id: last.id }
      : null;
    for (;;) {
      const page = await this.provider.listPublishedRenditions({
        workspace_id: job.workspace_id,
        social_account_id: job.account_id,
        limit: PAGE,
        ...(after ? { after } : {}),
      });
      await rememberRenditions(this.dataSource.manager, page.renditions as PublishedRenditionSummary[], { measureNow: false });
      if (!page.next_after || page.renditions.length === 0) return;
      after = page.next_after;
    }
  }

  /** Reads the counters of some renditions of the account; answers a JobEnd when the job must stop (rate limit, permission…). */
  private async measure(job: ClaimedJobRow, batch: MeasuredRenditionRow[]): Promise<JobEnd | undefined> {
    const result = await this.provider.postMetrics({
      workspace_id: job.workspace_id,
      account_id: job.account_id,
      external_ids: batch.map((r) => r.external_id),
    });
    const ids = batch.map((r) => r.id);
    if (result.status !== 'ok') {
      await this.ours(job, (db) =>
        db.query(
          `UPDATE renditions SET status = $2, error_code = $3, error_message = $4, last_attempted_at = now() WHERE id = ANY($1::uuid[])`,
          [ids, accountStatusOf(result), result.code, result.message],
        ),
      );
      if (
        job.kind === 'rendition_metrics' ||
        result.status === 'rate_limited' ||
        result.status === 'temporarily_unavailable' ||
        result.status === 'permission_required'
      ) {
        return { outcome: result.status, retryAt: retryAtOf(result, job.attempts) };
      }
      return undefined;
    }
    const byExternalId = new Map(result.data.map((m) => [m.external_id, m]));
    if (job.kind === 'rendition_metrics' && batch.length === 1 && byExternalId.has(batch[0].external_id)) {
      return this.recordMeasurement(job, batch[0].id, byExternalId.get(batch[0].external_id)!);
    }
    await this.ours(job, async (db) => {
      for (const rendition of batch) {
        const m = byExternalId.get(rendition.external_id);
        if (!m) {
          await db.query(
            `UPDATE renditions SET status = 'not_found', error_code = 'post_not_found',
               error_message = 'The network no longer reports this post.', last_attempted_at = now() WHERE id = $1`,
            [rendition.id],
          );
          continue;
        }
        await preparedQuery(
          db,
          'insights.sync.insert-rendition-metrics',
          `INSERT INTO rendition_metrics (rendition_id, workspace_id, collected_at, views, likes, comments, reposts)
           SELECT id, workspace_id, now(), $2, $3, $4, $5 FROM renditions WHERE id = $1 ON CONFLICT DO NOTHING`,
          [rendition.id, m.views, m.likes, m.comments, m.reposts],
        );
        await preparedQuery(
          db,
          'insights.sync.update-rendition-metrics',
          `UPDATE renditions SET status = 'ok', error_code = '', error_message = '', views = $2, likes = $3, comments = $4, reposts = $5,
                  collected_at = now(), last_attempted_at = now() WHERE id = $1`,
          [rendition.id, m.views, m.likes, m.comments, m.reposts],
        );
      }
    });
    return undefined;
  }

  /**
   * A rendition's measurement and its job's end in one named statement (every rendition that goes live is measured at
   * once): written only while the job's lease is ours, as `ours` would.
   */
  private async recordMeasurement(job: ClaimedJobRow, renditionId: string, m: ProviderPostMetrics): Promise<JobEnd> {
    await preparedQuery(
      this.dataSource,
      'insights.sync.record-measurement',
      `WITH job AS (
         UPDATE sync_jobs SET state = 'done', outcome = 'ok', finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
          WHERE id = $1 AND lease_owner = $2 RETURNING id),
       measured AS (
         INSERT INTO rendition_metrics (rendition_id, workspace_id, collected_at, views, likes, comments, reposts)
         SELECT id, workspace_id, now(), $4, $5, $6, $7 FROM renditions WHERE id = $3 AND EXISTS (SELECT 1 FROM job)
         ON CONFLICT DO NOTHING)
       UPDATE renditions SET status = 'ok', error_code = '', error_message = '', views = $4, likes = $5, comments = $6, reposts = $7,
              collected_at = now(), last_attempted_at = now()
        WHERE id = $3 AND EXISTS (SELECT 1 FROM job)`,
      [job.id, job.lease, renditionId, m.views, m.likes, m.comments, m.reposts],
    );
    return { outcome: 'ok', recorded: true };
  }

  private async renditionMetrics(job: ClaimedJobRow): Promise<JobEnd> {
    // The claim read the rendition's post (null: the rendition is gone).
    if (job.rendition_id === null || job.rendition_external_id === null) return { outcome: 'not_found' };
    return (await this.measure(job, [{ id: job.rendition_id, external_id: job.rendition_external_id }])) ?? { outcome: 'ok' };
  }

  private async follow(job: ClaimedJobRow): Promise<JobEnd> {
    const [item] = await this.dataSource.query<Array<Pick<GrowthItemRow, 'remote_account_id'>>>(
      `SELECT remote_account_id FROM growth_items WHERE id = $1`,
      [job.growth_item_id],
    );
    if (!item) return { outcome: 'not_found' };
    const result = await this.provider.follow({
      workspace_id: job.workspace_id,
      account_id: job.account_id,
      remote_account_id: item.remote_account_id,
    });
    if (result.status === 'ok') {
      await this.ours(job, (db) =>
        db.query(
          `UPDATE growth_items SET follow_state = $2, follow_error_code = '', follow_error_message = '', updated_at = now() WHERE id = $1`,
          [job.growth_item_id, result.data.follow_state],
        ),
      );
      return { outcome: 'ok' };
    }
    const retryAt = retryAtOf(result, job.attempts);
    // A rate limit or an outage leaves the follow pending until the retry; any other answer ends it failed.
    await this.ours(job, (db) =>
      db.query(
        `UPDATE growth_items SET follow_state = $2, follow_error_code = $3, follow_error_message = $4, updated_at = now() WHERE id = $1`,
        [job.growth_item_id, followStateAfter(retryAt), result.code, result.message],
      ),
    );
    return { outcome: result.status, retryAt };
  }
}
