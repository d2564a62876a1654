import type { ANALYTICS_ACCOUNT_STATUSES, ContentItem, Measurement, MetricMetadata } from '@social/contracts';
import { CONTENT_METRICS } from '@social/contracts';

/** The outcome of an account's or a rendition's last metrics sync (`status`; `pending` before the first). */
export type AccountSyncStatus = (typeof ANALYTICS_ACCOUNT_STATUSES)[number];

/** A rendition as E24 reads it (one row per rendition, its latest measurement denormalized). */
export interface RenditionRow {
  id: string;
  publication_id: string;
  social_account_id: string;
  platform: string;
  username: string | null;
  title: string;
  excerpt: string;
  content_profile: string;
  external_id: string;
  external_url: string;
  published_at: Date;
  status: AccountSyncStatus;
  error_code: string;
  error_message: string;
  views: string;
  likes: string;
  comments: string;
  reposts: string;
  engagement: string;
  collected_at: Date | null;
  next_sync_at: Date | null;
}

export const RENDITION_COLUMNS = `r.id, r.publication_id, r.social_account_id, r.platform, a.username, r.title, r.excerpt,
  r.content_profile, r.external_id, r.external_url, r.published_at, r.status, r.error_code, r.error_message, r.views, r.likes,
  r.comments, r.reposts, r.engagement, r.collected_at,
  (SELECT min(j.run_at) FROM sync_jobs j WHERE j.rendition_id = r.id AND j.state = 'queued') AS next_sync_at`;

/** A connected account (`accounts`) with what E24 adds: its follower series, latest snapshot, renditions and jobs. */
export interface AccountRow {
  id: string;
  platform: string;
  username: string;
  avatar_url: string;
  status: AccountSyncStatus;
  error_code: string;
  error_message: string;
  missing_scopes: string[];
  last_attempted_at: Date | null;
  last_success_at: Date | null;
  first_success_at: Date | null;
  next_sync_at: Date | null;
  series: Array<{ date: string; followers: number }> | null;
  latest: { followers: number; following: number; posts: number; collected_at: string } | null;
  discovered: number;
  watermark: Date | null;
  queued_at: Date | null;
  running: boolean;
}

/** One UTC day of the trend, with its top items. */
export interface DayRow {
  d: string;
  views: string;
  engagement: string;
  view_items: Array<{ key: string; label: string; platform: string; publication_id: string; value: number }> | null;
  engagement_items: Array<{ key: string; label: string; platform: string; publication_id: string; value: number }> | null;
}

/** The window's totals (and the previous window's), with its days. */
export interface TotalsRow {
  total: number;
  measured: number;
  views: string | null;
  engagement: string | null;
  publications: number;
  destinations: number;
  previous_views: string | null;
  previous_engagement: string | null;
  first_collected: Date | null;
  last_collected: Date | null;
  days: DayRow[];
}

/** A publication's renditions summed, for the publications list. */
export interface PublicationRow {
  publication_id: string;
  title: string;
  excerpt: string;
  engagement: string;
  views: string;
  published_at: Date;
  sort_at: Date;
}

/** Measurements older than this (the daily sync re-reads every rendition) are stale. */
export const STALE_AFTER_MS = 36 * 3_600_000;

export const iso = (at: Date | null | undefined): string | null => (at ? at.toISOString() : null);

export function metadata(available: boolean, source: string, start: Date | null, end: Date | null): MetricMetadata {
  return {
    aggregation: available ? 'current_snapshot' : 'unavailable',
    period_start: iso(start),
    period_end: iso(end),
    scale: 1,
    source,
    unit: 'count',
  };
}

export function toContentItem(row: RenditionRow, now: number): ContentItem {
  const measured = row.collected_at !== null;
  const values: Record<string, number> = {
    views: Number(row.views),
    likes: Number(row.likes),
    comments: Number(row.comments),
    reposts: Number(row.reposts),
  };
  const meta = metadata(measured, row.platform, row.published_at, row.collected_at);
  const metricMetadata: Record<string, MetricMetadata> = {};
  const measurements: Record<string, Measurement> = {};
  for (const metric of CONTENT_METRICS) {
    metricMetadata[metric] = meta;
    measurements[metric] = {
      availability: measured ? 'available' : 'pending',
      collected_at: iso(row.collected_at),
      metadata: meta,
      value: values[metric],
    };
  }
  return {
    rendition_id: row.id,
    publication_id: row.publication_id,
    account_id: row.social_account_id,
    platform: row.platform,
    username: row.username ?? '',
    title: row.title,
    excerpt: row.excerpt,
    content_profile: row.content_profile,
    external_url: row.external_url,
    source: 'native',
    reference: { account_content_id: row.external_id, type: 'native' },
    status: row.status,
    error_code: row.error_code,
    error_message: row.error_message,
    metric_availability: measured ? 'available' : 'pending',
    engagement: Number(row.engagement),
    metrics: values,
    metric_metadata: metricMetadata,
    measurements,
    stale: !row.collected_at || now - row.collected_at.getTime() > STALE_AFTER_MS,
    published_at: iso(row.published_at),
    collected_at: iso(row.collected_at),
    last_synced_at: iso(row.collected_at),
    next_sync_at: iso(row.next_sync_at),
  };
}
