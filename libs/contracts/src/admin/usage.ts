import { ACCOUNTS_SERVICE } from '../accounts/patterns.js';
import type { TrendPoint } from './overview.dto.js';
import { PUBLISHING_SERVICE } from '../publishing/patterns.js';
import { MEDIA_SERVICE } from '../media/patterns.js';
import { CREATIVE_SERVICE } from '../creative/patterns.js';

/**
 * How the admin service learns per-user and instance-wide counts without
 * reading other services' tables: every service listed in
 * USAGE_REPORTING_SERVICES answers two patterns.
 *
 * `<service>.usage.for-users` {user_ids} → {usage: {[user_id]: UserUsage}}:
 * one batched request per service per E9 page, never one per user. A service
 * fills only the members it owns and leaves the others out.
 *
 * `<service>.usage.totals` {days} → UsageTotals: instance-wide totals and
 * daily trends for E7, again only what the service owns.
 */
export const usageForUsersPattern = (service: string): string => `${service}.usage.for-users`;
export const usageTotalsPattern = (service: string): string => `${service}.usage.totals`;

/**
 * Services that report usage: accounts (memberships, activity), publishing (publications,
 * social accounts), media (items, bytes), creative (video projects, image designs).
 */
export const USAGE_REPORTING_SERVICES = [ACCOUNTS_SERVICE, PUBLISHING_SERVICE, MEDIA_SERVICE, CREATIVE_SERVICE] as const;

/** The most user ids one `usage.for-users` request may name (an E9 page is at most 100). */
export const MAX_USAGE_USER_IDS = 1_000;

export interface UsageForUsersRequest {
  user_ids: string[];
}

/** Every member optional: each service reports what it owns. */
export interface UserUsage {
  /** accounts (tenancy): organizations the user is a member of. */
  organization_count?: number;
  /** accounts (tenancy): workspaces the user is a member of. */
  workspace_count?: number;
  /** publishing: publications the user created. */
  publication_count?: number;
  /** publishing: social accounts connected by the user. */
  social_account_count?: number;
  /** media: ready media items the user uploaded. */
  media_item_count?: number;
  /** media: their bytes. */
  media_bytes?: number;
  /** creative: video projects the user created (trashed ones too, until purged). */
  video_project_count?: number;
  /** creative: image editor designs the user created. */
  image_design_count?: number;
  /** accounts: the user's last sign-in or token refresh (RFC 3339), "" when never. */
  last_active_at?: string;
}

export interface UsageForUsersReply {
  usage: Record<string, UserUsage>;
}

export interface UsageTotalsRequest {
  /** Length of the trend window in UTC days ending today (E7: 30). */
  days: number;
}

/** One UTC day's count (`YYYY-MM-DD`), as E7 publishes it. */
export type DailyCount = TrendPoint;

/** Every member optional: each service reports what it owns. */
export interface UsageTotals {
  total_users?: number;
  new_users_last_30_days?: number;
  user_registration_trend?: DailyCount[];
  total_organizations?: number;
  total_workspaces?: number;
  total_publications?: number;
  published_last_30_days?: number;
  publication_trend?: DailyCount[];
  /** media: ready media items, and their bytes. */
  total_media_items?: number;
  total_media_bytes?: number;
  /** creative: video projects (trashed ones too, until purged). */
  total_video_projects?: number;
  /** creative: image editor designs. */
  total_image_designs?: number;
}
