import { describe, expect, it } from '@jest/globals';
import type { PublicationEntity, PublicationSegmentEntity } from './publication.entity.js';
import {
  toDelivery,
  toPublication,
  toPublicationMedia,
  toPublicationSegment,
  toRendition,
  toRenditionSegment,
  toRepostOverride,
} from './publication.mapper.js';
import type { RenditionEntity, RenditionSegmentEntity } from './rendition.entity.js';

const at = (iso: string) => new Date(iso);

const MEDIA = {
  id: 'm1',
  url: 'https://cdn.example/a.jpg',
  role: 'cover',
  mime_type: 'image/jpeg',
  original_filename: 'a.jpg',
  alt_text: 'a cat',
  aspect_ratio: '4:5',
  dominant_type: 'image',
  analysis_status: 'done',
  analysis_error: 'none',
  poster_thumbnail_url: 'https://cdn.example/a-thumb.jpg',
  public_url_checked_at: '2026-11-22T10:00:00.000Z',
  public_url_error: 'slow',
  public_url_status: 200,
  public_url_ready: true,
  display_order: 2,
  duration_ms: 1500,
  width: 1080,
  height: 1350,
  size: 123456,
  thumbnail_timestamp_ms: 500,
  frame_rate: 29.97,
  settings: { crop: 'center' },
};

const EMPTY_MEDIA = {
  id: '',
  url: '',
  role: '',
  mime_type: '',
  original_filename: '',
  alt_text: '',
  aspect_ratio: '',
  dominant_type: '',
  analysis_status: '',
  analysis_error: '',
  poster_thumbnail_url: '',
  public_url_checked_at: '',
  public_url_error: '',
  public_url_status: 0,
  public_url_ready: false,
  display_order: 0,
  duration_ms: 0,
  width: 0,
  height: 0,
  size: 0,
  thumbnail_timestamp_ms: 0,
  frame_rate: 0,
  settings: {},
};

function outcome(prefix: string) {
  return {
    externalId: `${prefix}-ext`,
    externalUrl: `https://net.example/${prefix}`,
    errorAction: `${prefix}-action`,
    errorCode: `${prefix}-code`,
    errorKind: `${prefix}-kind`,
    errorMessage: `${prefix}-message`,
    errorHttpStatus: 503,
    errorRetryable: true,
    errorRetryAt: at('2026-11-22T12:00:00.000Z'),
  };
}

const RENDITION: RenditionEntity = {
  id: 'r1',
  publicationId: 'p1',
  socialAccountId: 'a1',
  platform: 'sandbox',
  targetKey: 'sandbox:a1',
  profile: 'short_text',
  outputProfile: 'post',
  status: 'failed',
  title: 'R title',
  body: 'R body',
  description: 'R description',
  formatLocked: true,
  scheduleOverride: '2026-11-23T08:00:00.000Z',
  media: [MEDIA],
  settings: { reply_to: 'x' },
  ...outcome('r'),
  deliveryState: 'rejected',
  deliveryRecoveryAction: 'retry',
  deliveryTargetKey: 'sandbox:a1:feed',
  deliveryCurrentAttemptId: 'att-1',
  deliveryCurrentAttemptNumber: 3,
  deliveryCurrentAttemptCreatedAt: at('2026-11-22T11:00:00.000Z'),
  deliveryTerminalReason: 'rejected by network',
  deliveryLastReconciledAt: at('2026-11-22T11:30:00.000Z'),
  deliveryNextReconciliationAt: at('2026-11-22T13:00:00.000Z'),
  createdAt: at('2026-11-22T09:00:00.000Z'),
  updatedAt: at('2026-11-22T11:00:00.000Z'),
};

const RENDITION_SEGMENT: RenditionSegmentEntity = {
  id: 'rs1',
  renditionId: 'r1',
  publicationSegmentId: 's1',
  position: 1,
  status: 'published',
  title: 'RS title',
  body: 'RS body',
  description: 'RS description',
  url: 'https://example.com/rs',
  titleOverride: 'T override',
  bodyOverride: 'B override',
  descriptionOverride: 'D override',
  urlOverride: 'https://example.com/override',
  mediaInherited: false,
  media: [MEDIA],
  settings: { alt: true },
  ...outcome('rs'),
};

const SEGMENT: PublicationSegmentEntity = {
  id: 's1',
  publicationId: 'p1',
  position: 0,
  title: 'S title',
  body: 'S body',
  description: 'S description',
  url: 'https://example.com/s',
  media: [MEDIA],
  settings: { pin: true },
};

const PUBLICATION: PublicationEntity = {
  id: 'p1',
  workspaceId: 'w1',
  status: 'scheduled',
  revision: 4,
  contentProfile: 'thread',
  title: 'Title',
  sourceText: 'Source',
  sourceUrl: 'https://example.com/source',
  audience: 'devs',
  goal: 'signups',
  intent: 'teach',
  creationPreset: 'preset-1',
  socialSetId: 'set-1',
  metadata: { campaign: 'q4' },
  media: [MEDIA, {}],
  randomDelayInherited: false,
  randomDelayMinutes: 15,
  repostOverride: {},
  scheduledAt: at('2026-11-23T08:00:00.000Z'),
  actualRunAt: at('2026-11-23T08:00:05.000Z'),
  failureDismissedAt: at('2026-11-23T09:00:00.000Z'),
  createdBy: 'u1',
  createdAt: at('2026-11-22T08:00:00.000Z'),
  updatedAt: at('2026-11-22T10:00:00.000Z'),
};

describe('publication mappers', () => {
  it('PublicationMedia: every member from the stored item', () => {
    expect(toPublicationMedia(MEDIA)).toEqual(MEDIA);
  });

  it('PublicationMedia: every member with its type whatever was stored (missing, null, wrong type)', () => {
    expect(toPublicationMedia({})).toEqual(EMPTY_MEDIA);
    const wrong = Object.fromEntries(Object.keys(MEDIA).map((key) => [key, key === 'settings' ? [1] : null]));
    expect(toPublicationMedia(wrong)).toEqual(EMPTY_MEDIA);
    expect(toPublicationMedia({ width: 1.5, size: '12', frame_rate: Number.NaN, public_url_ready: 'true', id: 7 })).toEqual(EMPTY_MEDIA);
  });

  it('PublicationSegment', () => {
    expect(toPublicationSegment(SEGMENT)).toEqual({
      id: 's1',
      position: 0,
      title: 'S title',
      body: 'S body',
      description: 'S description',
      url: 'https://example.com/s',
      media: [MEDIA],
      settings: { pin: true },
    });
  });

  it('Delivery: every delivery_* column, unset times and attempt as ""', () => {
    expect(toDelivery(RENDITION)).toEqual({
      state: 'rejected',
      recovery_action: 'retry',
      target_key: 'sandbox:a1:feed',
      current_attempt_id: 'att-1',
      current_attempt_number: 3,
      current_attempt_created_at: '2026-11-22T11:00:00.000Z',
      // The rendition's own outcome columns (one set, never a drifting copy).
      external_id: 'r-ext',
      external_url: 'https://net.example/r',
      error_code: 'r-code',
      error_kind: 'r-kind',
      error_http_status: 503,
      terminal_reason: 'rejected by network',
      last_reconciled_at: '2026-11-22T11:30:00.000Z',
      next_reconciliation_at: '2026-11-22T13:00:00.000Z',
    });
    const fresh = toDelivery({
      ...RENDITION,
      deliveryCurrentAttemptId: null,
      deliveryCurrentAttemptCreatedAt: null,
      deliveryLastReconciledAt: null,
      deliveryNextReconciliationAt: null,
    });
    expect(fresh).toMatchObject({
      current_attempt_id: '',
      current_attempt_created_at: '',
      last_reconciled_at: '',
      next_reconciliation_at: '',
    });
  });

  it('RenditionSegment', () => {
    const expected = {
      id: 'rs1',
      publication_segment_id: 's1',
      position: 1,
      status: 'published',
      title: 'RS title',
      body: 'RS body',
      description: 'RS description',
      url: 'https://example.com/rs',
      title_override: 'T override',
      body_override: 'B override',
      description_override: 'D override',
      url_override: 'https://example.com/override',
      media_inherited: false,
      media: [MEDIA],
      settings: { alt: true },
      external_id: 'rs-ext',
      external_url: 'https://net.example/rs',
      error_action: 'rs-action',
      error_code: 'rs-code',
      error_kind: 'rs-kind',
      error_message: 'rs-message',
      error_http_status: 503,
      error_retryable: true,
      error_retry_at: '2026-11-22T12:00:00.000Z',
    };
    expect(toRenditionSegment(RENDITION_SEGMENT)).toEqual(expected);
    // Its publication segment replaced by an edit, no retry planned.
    expect(toRenditionSegment({ ...RENDITION_SEGMENT, publicationSegmentId: null, errorRetryAt: null })).toEqual({
      ...expected,
      publication_segment_id: '',
      error_retry_at: '',
    });
  });

  it('Rendition, with its delivery and segments', () => {
    expect(toRendition(RENDITION, [RENDITION_SEGMENT])).toEqual({
      id: 'r1',
      publication_id: 'p1',
      social_account_id: 'a1',
      platform: 'sandbox',
      target_key: 'sandbox:a1',
      profile: 'short_text',
      output_profile: 'post',
      status: 'failed',
      title: 'R title',
      body: 'R body',
      description: 'R description',
      format_locked: true,
      schedule_override: '2026-11-23T08:00:00.000Z',
      media: [MEDIA],
      settings: { reply_to: 'x' },
      external_id: 'r-ext',
      external_url: 'https://net.example/r',
      error_action: 'r-action',
      error_code: 'r-code',
      error_kind: 'r-kind',
      error_message: 'r-message',
      error_http_status: 503,
      error_retryable: true,
      error_retry_at: '2026-11-22T12:00:00.000Z',
      delivery: toDelivery(RENDITION),
      segments: [toRenditionSegment(RENDITION_SEGMENT)],
    });
    expect(toRendition({ ...RENDITION, errorRetryAt: null }, []).error_retry_at).toBe('');
  });

  it('RepostOverride: "inherit" with zero thresholds when nothing is stored', () => {
    expect(toRepostOverride({})).toEqual({
      mode: 'inherit',
      target_account_ids: [],
      rule: {
        delay_seconds: 0,
        evaluation_window_seconds: 0,
        min_comments: 0,
        min_likes: 0,
        min_reposts: 0,
        min_views: 0,
        plateau_checks: 0,
        require_plateau: false,
        threshold_mode: 'all',
        stages: [],
      },
    });
  });

  it('RepostOverride: every stored member, and stray values dropped', () => {
    const stored = {
      mode: 'custom',
      target_account_ids: ['a1', 7, 'a2'],
      rule: {
        delay_seconds: 60,
        evaluation_window_seconds: 3600,
        min_comments: 1,
        min_likes: 2,
        min_reposts: 3,
        min_views: 4,
        plateau_checks: 5,
        require_plateau: true,
        threshold_mode: 'any',
        stages: [{ delay_seconds: 120, unrepost_previous: true }, { delay_seconds: 'x' }, null],
      },
    };
    expect(toRepostOverride(stored)).toEqual({
      mode: 'custom',
      target_account_ids: ['a1', 'a2'],
      rule: {
        ...stored.rule,
        stages: [
          { delay_seconds: 120, unrepost_previous: true },
          { delay_seconds: 0, unrepost_previous: false },
          { delay_seconds: 0, unrepost_previous: false },
        ],
      },
    });
  });

  it('Publication: every member, children in order', () => {
    expect(
      toPublication({
        publication: PUBLICATION,
        segments: [SEGMENT],
        renditions: [{ rendition: RENDITION, segments: [RENDITION_SEGMENT] }],
      }),
    ).toEqual({
      id: 'p1',
      workspace_id: 'w1',
      status: 'scheduled',
      revision: 4,
      content_profile: 'thread',
      title: 'Title',
      source_text: 'Source',
      source_url: 'https://example.com/source',
      audience: 'devs',
      goal: 'signups',
      intent: 'teach',
      creation_preset: 'preset-1',
      social_set_id: 'set-1',
      metadata: { campaign: 'q4' },
      media: [MEDIA, EMPTY_MEDIA],
      segments: [toPublicationSegment(SEGMENT)],
      renditions: [toRendition(RENDITION, [RENDITION_SEGMENT])],
      random_delay_inherited: false,
      random_delay_minutes: 15,
      repost_override: toRepostOverride({}),
      scheduled_at: '2026-11-23T08:00:00.000Z',
      actual_run_at: '2026-11-23T08:00:05.000Z',
      failure_dismissed_at: '2026-11-23T09:00:00.000Z',
      created_by: 'u1',
      created_at: '2026-11-22T08:00:00.000Z',
      updated_at: '2026-11-22T10:00:00.000Z',
    });
  });

  it('Publication: unset times and social set as "", media not an array as []', () => {
    const draft = toPublication({
      publication: {
        ...PUBLICATION,
        socialSetId: null,
        scheduledAt: null,
        actualRunAt: null,
        failureDismissedAt: null,
        media: {} as never,
      },
      segments: [],
      renditions: [],
    });
    expect(draft).toMatchObject({
      social_set_id: '',
      scheduled_at: '',
      actual_run_at: '',
      failure_dismissed_at: '',
      media: [],
      segments: [],
      renditions: [],
    });
  });
});
