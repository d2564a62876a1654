import type { FOLLOW_STATES, GROWTH_SYNC_STATUSES, GrowthMutual } from '@social/contracts';

export type FollowState = (typeof FOLLOW_STATES)[number];
export type GrowthSyncStatus = (typeof GROWTH_SYNC_STATUSES)[number];

/** A recommendation of one connected account (`growth_items`) as GROWTH_ITEM_COLUMNS selects it. */
export interface GrowthItemRow {
  id: string;
  workspaceId: string;
  social_account_id: string;
  platform: string;
  generation_id: string;
  remote_account_id: string;
  handle: string;
  display_name: string;
  avatar_url: string;
  bio: string;
  profile_url: string;
  /** bigint counters, as pg gives them. */
  followers_count: string;
  following_count: string;
  mutual_count: string;
  mutuals: GrowthMutual[];
  score: number;
  signals: string[];
  follow_state: FollowState;
  follow_error_code: string;
  follow_error_message: string;
  dismissed_at: Date | null;
  created_at: Date;
  last_seen_at: Date;
  updated_at: Date;
}

export const GROWTH_ITEM_COLUMNS = `id, workspace_id AS "workspaceId", social_account_id, platform, generation_id, remote_account_id,
  handle, display_name, avatar_url, bio, profile_url, followers_count, following_count, mutual_count, mutuals, score, signals,
  follow_state, follow_error_code, follow_error_message, dismissed_at, created_at, last_seen_at, updated_at`;

/** An account's growth sync state (`growth_sync_states`, all columns). */
export interface GrowthSyncStateRow {
  id: string;
  workspace_id: string;
  social_account_id: string;
  platform: string;
  status: GrowthSyncStatus;
  current_generation_id: string;
  error_code: string;
  error_message: string;
  last_attempted_at: Date | null;
  last_success_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
