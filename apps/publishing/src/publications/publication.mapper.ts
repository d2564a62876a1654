import type {
  Delivery,
  Publication,
  PublicationMedia,
  PublicationSegment,
  PublishOutcome,
  Rendition,
  RenditionSegment,
  RepostOverride,
} from '@social/contracts';
import type { PublicationEntity, PublicationSegmentEntity, StoredMedia } from './publication.entity.js';
import type { DeliveryOutcome, RenditionEntity, RenditionSegmentEntity } from './rendition.entity.js';

/** A publication with everything its published shape holds, segments and renditions in order. */
export interface LoadedPublication {
  publication: PublicationEntity;
  segments: PublicationSegmentEntity[];
  renditions: Array<{ rendition: RenditionEntity; segments: RenditionSegmentEntity[] }>;
}

/** A time-named `string` member: "" when unset (docs/decisions.md). */
const timeString = (at: Date | null): string => (at ? at.toISOString() : '');

// jsonb values are read defensively: whatever a future writer stored, every member answers with its type.
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const integer = (value: unknown): number => (Number.isSafeInteger(value) ? (value as number) : 0);
const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const map = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export function toPublicationMedia(stored: StoredMedia): PublicationMedia {
  return {
    id: text(stored.id),
    url: text(stored.url),
    role: text(stored.role),
    mime_type: text(stored.mime_type),
    original_filename: text(stored.original_filename),
    alt_text: text(stored.alt_text),
    aspect_ratio: text(stored.aspect_ratio),
    dominant_type: text(stored.dominant_type),
    analysis_status: text(stored.analysis_status),
    analysis_error: text(stored.analysis_error),
    poster_thumbnail_url: text(stored.poster_thumbnail_url),
    public_url_checked_at: text(stored.public_url_checked_at),
    public_url_error: text(stored.public_url_error),
    public_url_status: integer(stored.public_url_status),
    public_url_ready: stored.public_url_ready === true,
    display_order: integer(stored.display_order),
    duration_ms: integer(stored.duration_ms),
    width: integer(stored.width),
    height: integer(stored.height),
    size: integer(stored.size),
    thumbnail_timestamp_ms: integer(stored.thumbnail_timestamp_ms),
    frame_rate: number(stored.frame_rate),
    settings: map(stored.settings),
  };
}

const toMediaList = (stored: unknown): PublicationMedia[] => list(stored).map((item) => toPublicationMedia(map(item)));

export function toPublicationSegment(segment: PublicationSegmentEntity): PublicationSegment {
  return {
    id: segment.id,
    position: segment.position,
    title: segment.title,
    body: segment.body,
    description: segment.description,
    url: segment.url,
    media: toMediaList(segment.media),
    settings: segment.settings,
  };
}

export function toDelivery(rendition: RenditionEntity): Delivery {
  return {
    state: rendition.deliveryState,
    recovery_action: rendition.deliveryRecoveryAction,
    target_key: rendition.deliveryTargetKey,
    current_attempt_id: rendition.deliveryCurrentAttemptId ?? '',
    current_attempt_number: rendition.deliveryCurrentAttemptNumber,
    current_attempt_created_at: timeString(rendition.deliveryCurrentAttemptCreatedAt),
    // One set of outcome columns: the Delivery shows the rendition's own, so the two never drift apart.
    external_id: rendition.externalId,
    external_url: rendition.externalUrl,
    error_code: rendition.errorCode,
    error_kind: rendition.errorKind,
    error_http_status: rendition.errorHttpStatus,
    terminal_reason: rendition.deliveryTerminalReason,
    last_reconciled_at: timeString(rendition.deliveryLastReconciledAt),
    next_reconciliation_at: timeString(rendition.deliveryNextReconciliationAt),
  };
}

/** What the network answered for a rendition or one of its segments. */
function toPublishOutcome(outcome: DeliveryOutcome): PublishOutcome {
  return {
    external_id: outcome.externalId,
    external_url: outcome.externalUrl,
    error_action: outcome.errorAction,
    error_code: outcome.errorCode,
    error_kind: outcome.errorKind,
    error_message: outcome.errorMessage,
    error_http_status: outcome.errorHttpStatus,
    error_retryable: outcome.errorRetryable,
    error_retry_at: timeString(outcome.errorRetryAt),
  };
}

export function toRenditionSegment(segment: RenditionSegmentEntity): RenditionSegment {
  return {
    id: segment.id,
    publication_segment_id: segment.publicationSegmentId ?? '',
    position: segment.position,
    status: segment.status,
    title: segment.title,
    body: segment.body,
    description: segment.description,
    url: segment.url,
    title_override: segment.titleOverride,
    body_override: segment.bodyOverride,
    description_override: segment.descriptionOverride,
    url_override: segment.urlOverride,
    media_inherited: segment.mediaInherited,
    media: toMediaList(segment.media),
    settings: segment.settings,
    ...toPublishOutcome(segment),
  };
}

export function toRendition(rendition: RenditionEntity, segments: RenditionSegmentEntity[]): Rendition {
  return {
    id: rendition.id,
    publication_id: rendition.publicationId,
    social_account_id: rendition.socialAccountId,
    platform: rendition.platform,
    target_key: rendition.targetKey,
    profile: rendition.profile,
    output_profile: rendition.outputProfile,
    status: rendition.status,
    title: rendition.title,
    body: rendition.body,
    description: rendition.description,
    format_locked: rendition.formatLocked,
    schedule_override: rendition.scheduleOverride,
    media: toMediaList(rendition.media),
    settings: rendition.settings,
    ...toPublishOutcome(rendition),
    delivery: toDelivery(rendition),
    segments: segments.map(toRenditionSegment),
  };
}

/** The stored override with every member present: "inherit" with zero thresholds unless set. */
export function toRepostOverride(stored: Record<string, unknown>): RepostOverride {
  const rule = map(stored.rule);
  return {
    mode: text(stored.mode) || 'inherit',
    target_account_ids: list(stored.target_account_ids).filter((id): id is string => typeof id === 'string'),
    rule: {
      delay_seconds: integer(rule.delay_seconds),
      evaluation_window_seconds: integer(rule.evaluation_window_seconds),
      min_comments: integer(rule.min_comments),
      min_likes: integer(rule.min_likes),
      min_reposts: integer(rule.min_reposts),
      min_views: integer(rule.min_views),
      plateau_checks: integer(rule.plateau_checks),
      require_plateau: rule.require_plateau === true,
      threshold_mode: text(rule.threshold_mode) || 'all',
      stages: list(rule.stages).map((stage) => ({
        delay_seconds: integer(map(stage).delay_seconds),
        unrepost_previous: map(stage).unrepost_previous === true,
      })),
    },
  };
}

/** The one place a stored publication becomes its published shape. */
export function toPublication({ publication, segments, renditions }: LoadedPublication): Publication {
  return {
    id: publication.id,
    workspace_id: publication.workspaceId,
    status: publication.status,
    revision: publication.revision,
    content_profile: publication.contentProfile,
    title: publication.title,
    source_text: publication.sourceText,
    source_url: publication.sourceUrl,
    audience: publication.audience,
    goal: publication.goal,
    intent: publication.intent,
    creation_preset: publication.creationPreset,
    social_set_id: publication.socialSetId ?? '',
    metadata: publication.metadata,
    media: toMediaList(publication.media),
    segments: segments.map(toPublicationSegment),
    renditions: renditions.map(({ rendition, segments: parts }) => toRendition(rendition, parts)),
    random_delay_inherited: publication.randomDelayInherited,
    random_delay_minutes: publication.randomDelayMinutes,
    repost_override: toRepostOverride(publication.repostOverride),
    scheduled_at: timeString(publication.scheduledAt),
    actual_run_at: timeString(publication.actualRunAt),
    failure_dismissed_at: timeString(publication.failureDismissedAt),
    created_by: publication.createdBy,
    created_at: publication.createdAt.toISOString(),
    updated_at: publication.updatedAt.toISOString(),
  };
}
