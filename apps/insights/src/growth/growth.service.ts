import { Injectable } from '@nestjs/common';
import {
  GrowthFollowUpdate,
  GrowthItem,
  GrowthListResult,
  GrowthQuery,
  GrowthSyncState,
  Principal,
  RefreshGrowthRequest,
  SyncJobAccepted,
} from '@social/contracts';
import { AccessControl, problems } from '@social/platform';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { AccountDirectory } from '../accounts/account-directory.js';
import { ensureGrowthState } from '../sync/job-runner.js';
import { enqueueJob } from '../sync/sync-jobs.js';
import { GROWTH_ITEM_COLUMNS, type GrowthItemRow, type GrowthSyncStateRow } from './growth.row.js';

const NO_SUCH_ITEM = 'No such growth recommendation.';
const iso = (at: Date | null) => (at ? at.toISOString() : null);

const toItem = (row: GrowthItemRow): GrowthItem => ({
  id: row.id,
  workspace_id: row.workspaceId,
  social_account_id: row.social_account_id,
  platform: row.platform,
  generation_id: row.generation_id,
  remote_account_id: row.remote_account_id,
  handle: row.handle,
  display_name: row.display_name,
  avatar_url: row.avatar_url,
  bio: row.bio,
  profile_url: row.profile_url,
  follow_state: row.follow_state,
  follow_error_code: row.follow_error_code,
  follow_error_message: row.follow_error_message,
  followers_count: Number(row.followers_count),
  following_count: Number(row.following_count),
  mutual_count: Number(row.mutual_count),
  // Networks report a count of mutual followers, not who they are.
  mutual_exact: false,
  follows_viewer: false,
  score: row.score,
  signals: row.signals,
  mutuals: row.mutuals,
  created_at: row.created_at.toISOString(),
  last_seen_at: row.last_seen_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const toUpdate = (row: GrowthItemRow): GrowthFollowUpdate => ({
  id: row.id,
  generation_id: row.generation_id,
  follow_state: row.follow_state,
  follow_error_code: row.follow_error_code,
  follow_error_message: row.follow_error_message,
  updated_at: row.updated_at.toISOString(),
});

const toState = (row: GrowthSyncStateRow): GrowthSyncState => ({
  id: row.id,
  workspace_id: row.workspace_id,
  social_account_id: row.social_account_id,
  platform: row.platform,
  status: row.status,
  current_generation_id: row.current_generation_id,
  error_code: row.error_code,
  error_message: row.error_message,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  last_attempted_at: iso(row.last_attempted_at),
  last_success_at: iso(row.last_success_at),
});

/** E23 and its actions: stored recommendations of one connected account; refreshes and follows run as sync jobs. */
@Injectable()
export class GrowthService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly accounts: AccountDirectory,
  ) {}

  async list(principal: Principal, query: GrowthQuery): Promise<GrowthListResult> {
    await this.access.requireWorkspace(principal, query.workspace_id, 'viewer', 'query');
    const account = await this.accounts.require(query.workspace_id, query.account_id);
    // The state exists from the account's first look on (idle until a refresh is asked for).
    await this.dataSource.query(
      `INSERT INTO growth_sync_states (id, workspace_id, social_account_id, platform, status, created_at, updated_at)
       SELECT $2, workspace_id, id, platform, 'idle', now(), now() FROM accounts WHERE id = $1 ON CONFLICT (social_account_id) DO NOTHING`,
      [account.id, uuidv7()],
    );
    const [state] = await this.dataSource.query<GrowthSyncStateRow[]>(`SELECT * FROM growth_sync_states WHERE social_account_id = $1`, [
      account.id,
    ]);
    const rows = await this.dataSource.query<GrowthItemRow[]>(
      `SELECT ${GROWTH_ITEM_COLUMNS} FROM growth_items WHERE social_account_id = $1
        AND ((generation_id::text = $2 AND dismissed_at IS NULL) OR follow_state <> 'idle')
        ORDER BY score DESC, id`,
      [account.id, state.current_generation_id],
    );
    return {
      items: rows.filter((r) => r.generation_id === state.current_generation_id && !r.dismissed_at).map(toItem),
      follow_updates: rows
        .filter((r) => r.follow_state !== 'idle')
        .sort((a, b) => b.updated_at.getTime() - a.updated_at.getTime() || (a.id < b.id ? 1 : -1))
        .map(toUpdate),
      sync_state: toState(state),
    };
  }

  /** 202; one queued refresh per account (a second request answers the pending job). */
  async refresh(principal: Principal, input: RefreshGrowthRequest): Promise<SyncJobAccepted> {
    await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    const account = await this.accounts.require(input.workspace_id, input.account_id);
    const job = await this.dataSource.transaction(async (db) => {
      const queued = await enqueueJob(db, { kind: 'growth_refresh', workspaceId: account.workspaceId, accountId: account.id });
      // A refresh already queued (e.g. waiting for a rate limit's reset) keeps the state its last attempt recorded.
      if (queued.created) await ensureGrowthState(db, account.id, 'queued');
      return queued;
    });
    return { job_id: job.id, status: 'queued' };
  }

  /** 202: the follow runs as a job through the network adapter and ends following, requested or failed. */
  async follow(principal: Principal, id: string): Promise<SyncJobAccepted> {
    const item = await this.findVisible(principal, id);
    if (item.follow_state === 'following' || item.follow_state === 'requested') {
      throw problems.conflict(
        'already_following',
        `The account is already ${item.follow_state === 'following' ? 'followed' : 'requested'}.`,
      );
    }
    const job = await this.dataSource.transaction(async (db) => {
      const queued = await enqueueJob(db, {
        kind: 'follow',
        workspaceId: item.workspaceId,
        accountId: item.social_account_id,
        growthItemId: item.id,
      });
      await db.query(
        `UPDATE growth_items SET follow_state = 'pending', follow_error_code = '', follow_error_message = '', updated_at = now()
         WHERE id = $1`,
        [item.id],
      );
      return queued;
    });
    return { job_id: job.id, status: 'queued' };
  }

  /** 204: the recommendation leaves the list (a later refresh that recommends it again keeps it dismissed). */
  async dismiss(principal: Principal, id: string): Promise<void> {
    await this.findVisible(principal, id);
    await this.dataSource.query(`UPDATE growth_items SET dismissed_at = coalesce(dismissed_at, now()), updated_at = now() WHERE id = $1`, [
      id,
    ]);
  }

  private findVisible(principal: Principal, id: string): Promise<GrowthItemRow> {
    return this.access.requireVisible(
      principal,
      async () =>
        (await this.dataSource.query<GrowthItemRow[]>(`SELECT ${GROWTH_ITEM_COLUMNS} FROM growth_items WHERE id = $1`, [id]))[0] ?? null,
      'editor',
      NO_SUCH_ITEM,
    );
  }
}
