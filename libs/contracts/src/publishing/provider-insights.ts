import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDateString,
  IsInt,
  IsObject,
  IsString,
  IsUUID,
  Length,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../common/optional.js';

/**
 * Internal NATS requests the insights service makes of publishing (issue 15):
 * the network adapters and every account's grant live in publishing, so
 * insights asks it to call the network and gets plain data back. Tokens never
 * leave publishing. None of these is reachable over HTTP.
 */
export const ProviderInsightsPatterns = {
  /** Connected accounts, for sync scheduling and for checking an account is the workspace's → ProviderAccountPage. */
  listAccounts: 'publishing.providers.accounts',
  /** Published renditions (what analytics measures), oldest first → PublishedRenditionPage. */
  listPublishedRenditions: 'publishing.providers.published-renditions',
  /** The account's counters (followers, following, posts) → ProviderCallResult<ProviderAccountMetrics>. */
  accountMetrics: 'publishing.providers.metrics',
  /** Counters of some of the account's posts → ProviderCallResult<ProviderPostMetrics[]>. */
  postMetrics: 'publishing.providers.post-metrics',
  /** Accounts worth following → ProviderCallResult<ProviderFollowRecommendation[]>. */
  recommendations: 'publishing.providers.recommendations',
  /** Follows one remote account → ProviderCallResult<ProviderFollowOutcome>. */
  follow: 'publishing.providers.follow',
} as const;

/**
 * Durable (outbox → JetStream): a connected account was disconnected (deleted);
 * its sync jobs stop and its stored insights may be dropped.
 */
export const ACCOUNT_DISCONNECTED_SUBJECT = 'durable.publishing.account.disconnected';

export interface AccountDisconnectedEvent {
  workspace_id: string;
  social_account_id: string;
  platform: string;
  /** RFC 3339. */
  occurred_at: string;
}

// ---- requests ----

/**
 * `workspace_id` set: only that workspace's accounts (an id of another workspace is simply absent).
 * `account_ids` set: only those. Keyset paging by id: `after_id` is the last id of the previous page.
 */
export interface ListProviderAccountsRequest {
  workspace_id?: string;
  account_ids?: string[];
  after_id?: string;
  /** 1–1000, default 500. */
  limit?: number;
}

export interface ListPublishedRenditionsRequest {
  workspace_id?: string;
  social_account_id?: string;
  rendition_ids?: string[];
  /**
   * Keyset: renditions published after this (published_at, rendition_id) pair; absent or
   * null: from the oldest (so the previous page's `next_after` may be passed as it is).
   */
  after?: { published_at: string; rendition_id: string } | null;
  /** 1–1000, default 500. */
  limit?: number;
}

/** Every provider call names the account and the workspace that must own it. */
export interface ProviderAccountRequest {
  workspace_id: string;
  account_id: string;
}

export interface ProviderPostMetricsRequest extends ProviderAccountRequest {
  /** The networks' ids of the posts (a rendition's `external_id`); at most 100. */
  external_ids: string[];
}

export interface ProviderRecommendationsRequest extends ProviderAccountRequest {
  /** 1–100. */
  limit: number;
}

export interface ProviderFollowRequest extends ProviderAccountRequest {
  /** The network's id of the account to follow (a recommendation's `remote_account_id`). */
  remote_account_id: string;
}

// ---- request validation (publishing validates every payload with these; internal only, so no OpenAPI) ----

const uuid = { message: '$property must be a UUID' };
const integer = { message: '$property must be an integer' };

/** Most ids or rows one request may name or ask for. */
export const PROVIDER_INSIGHTS_MAX_PAGE = 1000;
/** Most posts one post-metrics request may name. */
export const PROVIDER_INSIGHTS_MAX_POSTS = 100;

export class ListProviderAccountsInput implements ListProviderAccountsRequest {
  @Optional() @IsUUID('all', uuid) workspace_id?: string;
  @Optional()
  @IsArray()
  @ArrayMaxSize(PROVIDER_INSIGHTS_MAX_PAGE)
  @IsUUID('all', { each: true, message: '$property must contain UUIDs' })
  account_ids?: string[];
  @Optional() @IsUUID('all', uuid) after_id?: string;
  @Optional() @IsInt(integer) @Min(1) @Max(PROVIDER_INSIGHTS_MAX_PAGE) limit?: number;
}

export class PublishedRenditionsCursorInput {
  @IsDateString({ strict: true }, { message: '$property must be an RFC 3339 date-time' }) published_at: string;
  @IsUUID('all', uuid) rendition_id: string;
}

export class ListPublishedRenditionsInput implements ListPublishedRenditionsRequest {
  @Optional() @IsUUID('all', uuid) workspace_id?: string;
  @Optional() @IsUUID('all', uuid) social_account_id?: string;
  @Optional()
  @IsArray()
  @ArrayMaxSize(PROVIDER_INSIGHTS_MAX_PAGE)
  @IsUUID('all', { each: true, message: '$property must contain UUIDs' })
  rendition_ids?: string[];
  /** null is the first page too: a caller may pass the previous page's `next_after` as it is. */
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsObject()
  @ValidateNested()
  @Type(() => PublishedRenditionsCursorInput)
  after?: PublishedRenditionsCursorInput | null;
  @Optional() @IsInt(integer) @Min(1) @Max(PROVIDER_INSIGHTS_MAX_PAGE) limit?: number;
}

export class ProviderAccountInput implements ProviderAccountRequest {
  @IsUUID('all', uuid) workspace_id: string;
  @IsUUID('all', uuid) account_id: string;
}

export class ProviderPostMetricsInput extends ProviderAccountInput implements ProviderPostMetricsRequest {
  @IsArray() @ArrayMaxSize(PROVIDER_INSIGHTS_MAX_POSTS) @IsString({ each: true }) @Length(1, 2048, { each: true }) external_ids: string[];
}

export class ProviderRecommendationsInput extends ProviderAccountInput implements ProviderRecommendationsRequest {
  @IsInt(integer) @Min(1) @Max(100) limit: number;
}

export class ProviderFollowInput extends ProviderAccountInput implements ProviderFollowRequest {
  @IsString() @Length(1, 512) remote_account_id: string;
}

// ---- answers ----

export interface ProviderAccountSummary {
  id: string;
  workspace_id: string;
  platform: string;
  username: string;
  display_name: string;
  avatar_url: string;
  /** The account's connection status as publishing stores it: `active` or `reconnect_required` (SOCIAL_ACCOUNT_STATUSES). */
  status: string;
  /** Granted scopes, where the network reports them ([] otherwise). */
  scopes: string[];
  connected_at: string;
}

export interface ProviderAccountPage {
  accounts: ProviderAccountSummary[];
  /** Pass as `after_id` for the next page; "" on the last. */
  next_after_id: string;
}

export interface PublishedRenditionSummary {
  rendition_id: string;
  publication_id: string;
  workspace_id: string;
  social_account_id: string;
  platform: string;
  title: string;
  content_profile: string;
  /** The first 200 characters of what was sent. */
  excerpt: string;
  external_id: string;
  external_url: string;
  published_at: string;
}

export interface PublishedRenditionPage {
  renditions: PublishedRenditionSummary[];
  /** Pass as `after` for the next page; null on the last. */
  next_after: { published_at: string; rendition_id: string } | null;
}

export interface ProviderAccountMetrics {
  followers: number;
  following: number;
  posts: number;
}

export interface ProviderPostMetrics {
  external_id: string;
  views: number;
  likes: number;
  comments: number;
  reposts: number;
}

export interface ProviderFollowRecommendation {
  remote_account_id: string;
  handle: string;
  display_name: string;
  avatar_url: string;
  bio: string;
  profile_url: string;
  followers_count: number;
  following_count: number;
  mutual_count: number;
  /** Mutual accounts the network names, with the interface's capitalised keys (GrowthItem.mutuals); [] where it only counts them. */
  mutuals: Array<{ RemoteID: string; Handle: string; DisplayName: string; AvatarURL: string }>;
  /** 0–1, higher is a better match. */
  score: number;
  signals: string[];
}

export interface ProviderFollowOutcome {
  /** `following`, or `requested` when the remote account approves followers. */
  follow_state: 'following' | 'requested';
}

/**
 * What happened when publishing called the network for insights. Expected
 * network outcomes are answers, not errors; only "no such account in this
 * workspace" is a 404 problem.
 */
export type ProviderCallResult<T> =
  | { status: 'ok'; data: T }
  /** The network's rate limit; `retry_at` is its reset time (RFC 3339). */
  | { status: 'rate_limited'; retry_at: string; code: string; message: string }
  /** The grant lacks a scope or was refused; publishing has marked the account `reconnect_required` and raised account.needs-attention. */
  | { status: 'permission_required'; missing_scopes: string[]; code: string; message: string }
  /** The network does not offer this for the account (no API for it). */
  | { status: 'unsupported'; code: string; message: string }
  /** The network says the account (or post) no longer exists. */
  | { status: 'not_found'; code: string; message: string }
  /** 5xx, timeouts, a network unreachable: try later. */
  | { status: 'temporarily_unavailable'; retry_at: string; code: string; message: string }
  /** Anything else (the network refused the request as it is). */
  | { status: 'failed'; code: string; message: string };
