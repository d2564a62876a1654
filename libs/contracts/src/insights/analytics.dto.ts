import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsQueryInteger } from '../common/query-integer.js';
import { SchemaName } from '../common/schema-name.js';

const UUID_MESSAGE = { message: '$property must be a UUID' };

export const ANALYTICS_DAYS = [7, 30, 90] as const;
export const ANALYTICS_SOURCES = ['all', 'native', 'external'] as const;
export const ANALYTICS_SORTS = ['engagement', 'views', 'newest'] as const;
export const ANALYTICS_PAGE_MAX = 100;
export const ANALYTICS_PAGE_DEFAULT = 50;
/** Contract §7. */
export const ANALYTICS_ACCOUNT_STATUSES = [
  'ok',
  'pending',
  'unsupported',
  'permission_required',
  'rate_limited',
  'not_found',
  'failed',
] as const;
export const COVERAGE_STATUSES = ['pending', 'running', 'complete', 'failed'] as const;
/** The counters a rendition reports; engagement = likes + comments + reposts. */
export const CONTENT_METRICS = ['views', 'likes', 'comments', 'reposts'] as const;
export const ACCOUNT_METRICS = ['followers', 'following', 'posts'] as const;

// ---- requests ----

/** E24. */
export class AnalyticsQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiPropertyOptional({ type: 'integer', enum: ANALYTICS_DAYS, default: 30, description: 'reporting window in days, ending today (UTC)' })
  @Optional()
  // Digits become a number; anything else stays and fails the one check (a single error per location).
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value))
  @IsIn(ANALYTICS_DAYS as unknown as number[], { message: '$property must be one of 7, 30, 90' })
  days?: number;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'one connected account of the workspace (404 otherwise); filters accounts, content and totals',
  })
  @Optional()
  @IsUUID('all', UUID_MESSAGE)
  account_id?: string;

  @ApiPropertyOptional({
    enum: ANALYTICS_SOURCES,
    default: 'all',
    description:
      '`native`: renditions published through the platform; `external`: account content not ' +
      'published by us (none is collected yet, so it is empty); account growth stays account-wide',
  })
  @Optional()
  @IsIn(ANALYTICS_SOURCES as unknown as string[])
  source?: string;

  @ApiPropertyOptional({
    enum: ANALYTICS_SORTS,
    default: 'engagement',
    description: 'order of content and publications (ties: newest id first)',
  })
  @Optional()
  @IsIn(ANALYTICS_SORTS as unknown as string[])
  sort?: string;

  @ApiPropertyOptional({
    maxLength: 500,
    description:
      'content_next_cursor (pages content; publications stay on their first page) ' +
      'or publication_next_cursor (pages publications), issued for the same workspace_id, days, account_id, source and sort',
  })
  @Optional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: ANALYTICS_PAGE_MAX,
    default: ANALYTICS_PAGE_DEFAULT,
    description: 'sizes both content and publications',
  })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(ANALYTICS_PAGE_MAX)
  limit?: number;
}

export class RefreshAnalyticsRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "one connected account (404 when not the workspace's); omitted: every connected account of the workspace",
  })
  @Optional()
  @IsUUID('all', UUID_MESSAGE)
  account_id?: string;
}

// ---- responses ----

export class SeriesPoint {
  @ApiProperty({ description: 'YYYY-MM-DD (UTC)' }) date: string;
  @ApiProperty({ type: 'integer' }) value: number;
}

export class TrendItem {
  @ApiProperty({ description: 'rendition id (views, engagement) or account id (followers)' }) key: string;
  @ApiProperty() label: string;
  @ApiProperty() platform: string;
  @ApiProperty({ description: '"" for followers' }) publication_id: string;
  @ApiProperty({ type: 'number' }) value: number;
}

export class AnalyticsTrendPoint {
  @ApiProperty({ description: 'YYYY-MM-DD (UTC)' }) date: string;
  @ApiProperty({ type: 'number' }) value: number;
  @ApiProperty({ type: [TrendItem], description: 'the largest contributors of the day (at most 5)' }) items: TrendItem[];
}

export class AnalyticsTrends {
  @ApiProperty({ type: [AnalyticsTrendPoint], description: 'engagement of the content published each day' })
  engagement: AnalyticsTrendPoint[];
  @ApiProperty({ type: [AnalyticsTrendPoint], description: 'followers summed over the accounts, per day with a snapshot' })
  followers: AnalyticsTrendPoint[];
  @ApiProperty({ type: [AnalyticsTrendPoint], description: 'views of the content published each day' }) views: AnalyticsTrendPoint[];
}

export class MetricMetadata {
  @ApiProperty({ enum: ['current_snapshot', 'unavailable'] }) aggregation: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) period_start: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) period_end: string | null;
  @ApiProperty({ type: 'integer', description: 'values are counts times this (always 1)' }) scale: number;
  @ApiProperty({ description: 'the network that reported it' }) source: string;
  @ApiProperty({ enum: ['count'] }) unit: string;
}

const METADATA_MAP = { type: 'object', additionalProperties: { $ref: '#/components/schemas/MetricMetadata' } } as const;
const NUMBER_MAP = { type: 'object', additionalProperties: { type: 'number' } } as const;

export class AnalyticsAccount {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() platform: string;
  @ApiProperty() username: string;
  @ApiProperty() avatar_url: string;
  @ApiProperty({ enum: ANALYTICS_ACCOUNT_STATUSES, description: 'the outcome of its last metrics sync (`pending` before the first)' })
  status: string;
  @ApiProperty() error_code: string;
  @ApiProperty() error_message: string;
  @ApiProperty({ description: 'the network reports account counters' }) account_supported: boolean;
  @ApiProperty({ description: 'the network reports post counters' }) content_supported: boolean;
  @ApiProperty({ description: 'no successful sync in the last 36 hours' }) stale: boolean;
  @ApiProperty({ type: 'integer', description: 'followers at the last snapshot of the window minus the first' }) follower_delta: number;
  @ApiProperty({ type: [SeriesPoint], description: 'followers per day with a snapshot in the window' }) follower_series: SeriesPoint[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_synced_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) next_sync_at: string | null;
  @ApiProperty({ ...METADATA_MAP, description: 'per metric of `metrics`' }) metric_metadata: Record<string, MetricMetadata>;
  @ApiProperty({ ...NUMBER_MAP, description: 'followers, following, posts at the latest snapshot ({} before the first)' }) metrics: Record<
    string,
    number
  >;
  @ApiProperty({ type: [String] }) missing_account_scopes: string[];
  @ApiProperty({ type: [String] }) missing_content_scopes: string[];
}

export class ContentReference {
  @ApiProperty({ description: "the network's id of the post" }) account_content_id: string;
  @ApiProperty({ enum: ['native', 'external'] }) type: string;
}

export class Measurement {
  @ApiProperty({ enum: ['available', 'pending'] }) availability: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) collected_at: string | null;
  @ApiProperty({ type: MetricMetadata }) metadata: MetricMetadata;
  @ApiProperty({ type: 'number' }) value: number;
}

export class ContentItem {
  @ApiProperty({ format: 'uuid' }) rendition_id: string;
  @ApiProperty({ format: 'uuid' }) publication_id: string;
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty() platform: string;
  @ApiProperty() username: string;
  @ApiProperty() title: string;
  @ApiProperty({ description: 'the first 200 characters of what was sent' }) excerpt: string;
  @ApiProperty() content_profile: string;
  @ApiProperty() external_url: string;
  @ApiProperty({ enum: ['native', 'external'] }) source: string;
  @ApiProperty({ type: ContentReference }) reference: ContentReference;
  @ApiProperty({ enum: ANALYTICS_ACCOUNT_STATUSES, description: 'the outcome of its last metrics sync' }) status: string;
  @ApiProperty() error_code: string;
  @ApiProperty() error_message: string;
  @ApiProperty({ enum: ['available', 'pending'] }) metric_availability: string;
  @ApiProperty({ type: 'number', description: 'likes + comments + reposts' }) engagement: number;
  @ApiProperty({ ...NUMBER_MAP, description: 'views, likes, comments, reposts (0 until measured)' }) metrics: Record<string, number>;
  @ApiProperty({ ...METADATA_MAP }) metric_metadata: Record<string, MetricMetadata>;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/Measurement' } }) measurements: Record<
    string,
    Measurement
  >;
  @ApiProperty({ description: 'no measurement in the last 8 days while its schedule wants one' }) stale: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) published_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the counters were read' }) collected_at:
    string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_synced_at: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'the next scheduled measurement (+1 h, +24 h, +7 d after publishing; null when none is left)',
  })
  next_sync_at: string | null;
}

@SchemaName('PublicationSummary')
export class PublicationAnalytics {
  @ApiProperty({ format: 'uuid' }) publication_id: string;
  @ApiProperty() title: string;
  @ApiProperty() excerpt: string;
  @ApiProperty({ type: 'number', description: 'likes + comments + reposts over its renditions' }) engagement: number;
  @ApiProperty({ type: 'number', description: 'renditions whose counters were measured' }) engagement_measured: number;
  @ApiProperty({ ...NUMBER_MAP }) metrics: Record<string, number>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'per metric, renditions measured' })
  measured: Record<string, number>;
  @ApiProperty({ type: [ContentItem] }) renditions: ContentItem[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) published_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_synced_at: string | null;
}

export class Coverage {
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty() platform: string;
  @ApiProperty({ enum: COVERAGE_STATUSES }) status: string;
  @ApiProperty() description: string;
  @ApiProperty() failure_code: string;
  @ApiProperty() failure_message: string;
  @ApiProperty({ type: 'integer', description: 'published renditions of the account known to analytics' }) initial_items_discovered: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'the oldest publication time covered' })
  backfill_watermark: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) initial_completed_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_attempted_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_success_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) next_eligible_at: string | null;
}

export class InsightContent {
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty() platform: string;
  @ApiProperty() username: string;
  @ApiProperty() title: string;
  @ApiProperty() excerpt: string;
  @ApiProperty({ type: ContentReference }) reference: ContentReference;
  @ApiProperty({ enum: ['native', 'external'] }) source: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) published_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) collected_at: string | null;
}

export class InsightPeriod {
  @ApiProperty({ enum: ['current_snapshot', 'unavailable'] }) aggregation: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) filter_start: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) filter_end: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) measurement_start: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) measurement_end: string | null;
}

export class Insight {
  @ApiProperty({ enum: ['most_engagement_actions'] }) kind: string;
  @ApiProperty({ enum: ['available', 'unavailable'] }) status: string;
  @ApiProperty({ description: '`missing_measurements` when unavailable, else ""' }) reason: string;
  @ApiProperty({ enum: ['filtered_content_lifetime_totals'] }) caveat: string;
  @ApiProperty() metric: string;
  @ApiProperty({ type: 'number' }) value: number;
  @ApiProperty() account_id: string;
  @ApiProperty() platform: string;
  @ApiProperty() username: string;
  @ApiProperty({ type: 'integer', description: 'content items compared' }) comparison_sample: number;
  @ApiProperty({ type: 'integer', description: 'accounts the compared content went to' }) destination_count: number;
  @ApiProperty({ type: 'integer', description: 'content items with measurements' }) measured_count: number;
  @ApiProperty({ type: InsightContent, description: 'the content the insight names (empty strings and null times when unavailable)' })
  content: InsightContent;
  @ApiProperty({ type: InsightPeriod }) period: InsightPeriod;
}

export class SummaryMetric {
  @ApiProperty({ type: 'number' }) value: number;
  @ApiProperty({
    type: 'number',
    description: 'followers: change over the window; content metrics: value minus that of the previous window of the same length',
  })
  delta: number;
  @ApiProperty({ type: 'number', description: 'accounts (followers) or content items (the others) that were measured' }) measured: number;
}

@SchemaName('Summary')
export class AnalyticsSummary {
  @ApiProperty({ type: SummaryMetric }) followers: SummaryMetric;
  @ApiProperty({ type: SummaryMetric }) views: SummaryMetric;
  @ApiProperty({ type: SummaryMetric, description: 'likes + comments + reposts' }) engagement: SummaryMetric;
  @ApiProperty({ type: SummaryMetric, description: 'no network reports it yet: 0, measured 0' }) impressions: SummaryMetric;
  @ApiProperty({ type: SummaryMetric, description: 'no network reports it yet: 0, measured 0' }) reach: SummaryMetric;
  @ApiProperty({ enum: ['account_wide'] }) follower_scope: string;
  @ApiProperty({ type: 'integer', description: 'content items published in the window' }) published: number;
}

/** E24. */
export class AnalyticsOverview {
  @ApiProperty({ type: 'integer', enum: ANALYTICS_DAYS }) range_days: number;
  @ApiProperty({ enum: ANALYTICS_SOURCES }) source: string;
  @ApiProperty({ enum: ['account_wide'] }) account_growth_scope: string;
  @ApiProperty({ type: String, format: 'date-time' }) generated_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_synced_at: string | null;
  @ApiProperty({ type: AnalyticsSummary }) summary: AnalyticsSummary;
  @ApiProperty({ type: [AnalyticsAccount] }) accounts: AnalyticsAccount[];
  @ApiProperty({ type: [SeriesPoint], description: 'followers summed over the accounts, per day with a snapshot' })
  follower_series: SeriesPoint[];
  @ApiProperty({ type: AnalyticsTrends }) trends: AnalyticsTrends;
  @ApiProperty({ type: [ContentItem] }) content: ContentItem[];
  @ApiProperty({ type: 'integer' }) content_total: number;
  @ApiProperty({ description: '"" on the last page' }) content_next_cursor: string;
  @ApiProperty({ type: [PublicationAnalytics] }) publications: PublicationAnalytics[];
  @ApiProperty({ type: 'integer' }) publication_total: number;
  @ApiProperty({ description: '"" on the last page' }) publication_next_cursor: string;
  @ApiProperty({ type: [Coverage] }) coverage: Coverage[];
  @ApiProperty({ type: [Insight] }) insights: Insight[];
}
