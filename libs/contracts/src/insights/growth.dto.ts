import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { SchemaName } from '../common/schema-name.js';

const UUID_MESSAGE = { message: '$property must be a UUID' };

/** Contract §7. */
export const FOLLOW_STATES = ['idle', 'pending', 'following', 'requested', 'failed'] as const;
export const GROWTH_SYNC_STATUSES = [
  'idle',
  'queued',
  'refreshing',
  'ok',
  'permission_required',
  'rate_limited',
  'temporarily_unavailable',
  'failed',
] as const;
export const SYNC_JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
/** Recommendations asked of the network per refresh. */
export const GROWTH_RECOMMENDATIONS_LIMIT = 20;

// ---- requests ----

/** E23. */
export class GrowthQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty({ format: 'uuid', description: 'a connected social account of the workspace (404 otherwise)' })
  @IsUUID('all', UUID_MESSAGE)
  account_id: string;
}

export class RefreshGrowthRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty({ format: 'uuid', description: 'a connected social account of the workspace (404 otherwise)' })
  @IsUUID('all', UUID_MESSAGE)
  account_id: string;
}

// ---- responses ----

export class GrowthMutual {
  @ApiProperty() AvatarURL: string;
  @ApiProperty() DisplayName: string;
  @ApiProperty() Handle: string;
  @ApiProperty() RemoteID: string;
}

export class GrowthItem {
  @ApiProperty({ format: 'uuid', description: 'the growth item (the path id of follow and dismiss)' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty({ format: 'uuid' }) social_account_id: string;
  @ApiProperty() platform: string;
  @ApiProperty({ format: 'uuid', description: 'the refresh that last recommended it' }) generation_id: string;
  @ApiProperty({ description: "the network's id of the recommended account" }) remote_account_id: string;
  @ApiProperty() handle: string;
  @ApiProperty() display_name: string;
  @ApiProperty() avatar_url: string;
  @ApiProperty() bio: string;
  @ApiProperty() profile_url: string;
  @ApiProperty({ enum: FOLLOW_STATES }) follow_state: string;
  @ApiProperty({ description: '"" unless follow_state is failed' }) follow_error_code: string;
  @ApiProperty({ description: '"" unless follow_state is failed' }) follow_error_message: string;
  @ApiProperty({ type: 'integer' }) followers_count: number;
  @ApiProperty({ type: 'integer' }) following_count: number;
  @ApiProperty({ type: 'integer', description: 'as the network estimates it' }) mutual_count: number;
  @ApiProperty({ description: 'whether mutual_count is exact (false: the network reports an estimate)' }) mutual_exact: boolean;
  @ApiProperty({ description: 'whether the account follows the connected account (false where the network does not say)' })
  follows_viewer: boolean;
  @ApiProperty({ type: 'number', description: '0–1, higher is a better match' }) score: number;
  @ApiProperty({ type: [String] }) signals: string[];
  @ApiProperty({
    type: [GrowthMutual],
    description: 'mutual accounts the network names, at most mutual_count ([] where it only counts them; the sandbox names 1–3)',
  })
  mutuals: GrowthMutual[];
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'when a refresh last recommended it' }) last_seen_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

export class GrowthFollowUpdate {
  @ApiProperty({ format: 'uuid', description: 'the growth item' }) id: string;
  @ApiProperty({ format: 'uuid' }) generation_id: string;
  @ApiProperty({ enum: FOLLOW_STATES }) follow_state: string;
  @ApiProperty() follow_error_code: string;
  @ApiProperty() follow_error_message: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

export class GrowthSyncState {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty({ format: 'uuid' }) social_account_id: string;
  @ApiProperty() platform: string;
  @ApiProperty({ enum: GROWTH_SYNC_STATUSES }) status: string;
  @ApiProperty({ description: 'the refresh whose recommendations are listed ("" before the first)' }) current_generation_id: string;
  @ApiProperty({ description: 'the last refresh\'s outcome code when it did not succeed, else ""' }) error_code: string;
  @ApiProperty() error_message: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_attempted_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_success_at: string | null;
}

/** E23. */
@SchemaName('ListResult')
export class GrowthListResult {
  @ApiProperty({ type: [GrowthItem], description: "the current refresh's recommendations, best first, dismissed ones left out" })
  items: GrowthItem[];
  @ApiProperty({
    type: [GrowthFollowUpdate],
    description: 'every item of the account whose follow_state is not idle, most recently changed first',
  })
  follow_updates: GrowthFollowUpdate[];
  @ApiProperty({ type: GrowthSyncState }) sync_state: GrowthSyncState;
}

/** 202 of POST /growth/refresh, POST /growth/{id}/follow and POST /analytics/refresh. */
export class SyncJobAccepted {
  @ApiProperty({ format: 'uuid', description: 'the queued job (the one already pending when deduplicated)' }) job_id: string;
  @ApiProperty({ enum: SYNC_JOB_STATUSES }) status: string;
}
