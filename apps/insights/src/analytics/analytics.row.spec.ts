import { describe, expect, it } from '@jest/globals';
import { CONTENT_METRICS } from '@social/contracts';
import { metadata, RenditionRow, STALE_AFTER_MS, toContentItem } from './analytics.row.js';

const PUBLISHED = new Date('2030-01-01T00:00:00.000Z');
const COLLECTED = new Date('2030-01-02T00:00:00.000Z');

const row = (values: Partial<RenditionRow> = {}): RenditionRow => ({
  id: 'r1',
  publication_id: 'pub1',
  social_account_id: 'a1',
  platform: 'mastodon',
  username: 'ada',
  title: 'Launch',
  excerpt: 'We launched',
  content_profile: 'post',
  external_id: '109',
  external_url: 'https://social.example/@ada/109',
  published_at: PUBLISHED,
  status: 'ok',
  error_code: '',
  error_message: '',
  views: '1200',
  likes: '30',
  comments: '4',
  reposts: '2',
  engagement: '36',
  collected_at: COLLECTED,
  next_sync_at: new Date('2030-01-03T00:00:00.000Z'),
  ...values,
});

describe('metric metadata', () => {
  it('is a current snapshot between publication and collection when measured', () => {
    expect(metadata(true, 'mastodon', PUBLISHED, COLLECTED)).toEqual({
      aggregation: 'current_snapshot',
      period_start: '2030-01-01T00:00:00.000Z',
      period_end: '2030-01-02T00:00:00.000Z',
      scale: 1,
      source: 'mastodon',
      unit: 'count',
    });
  });

  it('is unavailable, without a period end, before the first collection', () => {
    expect(metadata(false, 'x', PUBLISHED, null)).toMatchObject({ aggregation: 'unavailable', period_end: null });
  });
});

describe('a content item', () => {
  it('turns the stored counters (PostgreSQL bigint text) into numbers', () => {
    const item = toContentItem(row(), COLLECTED.getTime());
    expect(item.metrics).toEqual({ views: 1200, likes: 30, comments: 4, reposts: 2 });
    expect(item.engagement).toBe(36);
    expect(item).toMatchObject({
      rendition_id: 'r1',
      account_id: 'a1',
      username: 'ada',
      metric_availability: 'available',
      reference: { account_content_id: '109', type: 'native' },
      published_at: '2030-01-01T00:00:00.000Z',
      collected_at: '2030-01-02T00:00:00.000Z',
      last_synced_at: '2030-01-02T00:00:00.000Z',
      next_sync_at: '2030-01-03T00:00:00.000Z',
    });
  });

  it('describes every content metric with the same measurement', () => {
    const item = toContentItem(row(), COLLECTED.getTime());
    expect(Object.keys(item.measurements).sort()).toEqual([...CONTENT_METRICS].sort());
    expect(item.measurements.views).toEqual({
      availability: 'available',
      collected_at: '2030-01-02T00:00:00.000Z',
      metadata: metadata(true, 'mastodon', PUBLISHED, COLLECTED),
      value: 1200,
    });
  });

  it('is pending and stale until first measured', () => {
    const item = toContentItem(row({ collected_at: null, views: '0', username: null, next_sync_at: null }), PUBLISHED.getTime());
    expect(item).toMatchObject({ metric_availability: 'pending', stale: true, username: '', collected_at: null, next_sync_at: null });
    expect(item.measurements.likes.availability).toBe('pending');
  });

  it('turns stale 36 hours after its collection, not before', () => {
    const collected = COLLECTED.getTime();
    expect(STALE_AFTER_MS).toBe(36 * 3_600_000);
    expect(toContentItem(row(), collected + STALE_AFTER_MS).stale).toBe(false);
    expect(toContentItem(row(), collected + STALE_AFTER_MS + 1).stale).toBe(true);
  });
});
