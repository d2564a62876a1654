import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsInt, IsUUID, Max, Min } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsRfc3339DateTime } from '../common/time.js';
import { MAX_REVISION } from './voice-profiles.dto.js';

/** Most target accounts one schedule or publish-now names (a social set holds at most 100 too). */
export const MAX_TARGET_ACCOUNTS = 100;
/** `scheduled_at` may be this far in the past (clock skew, a slow form) and still count as now. */
export const SCHEDULE_PAST_TOLERANCE_MS = 60_000;
/** `scheduled_at` at most this far ahead (2 years). */
export const SCHEDULE_MAX_AHEAD_MS = 2 * 366 * 24 * 3600 * 1000;
/** Attempts one rendition gets per round (schedule, publish-now or retry) before it fails. */
export const MAX_DELIVERY_ATTEMPTS = 5;

const REVISION = {
  type: 'integer',
  minimum: 1,
  description: 'the `revision` the call is based on; another one is 409 revision_conflict',
} as const;

/** An optional list of target accounts (1 to MAX_TARGET_ACCOUNTS distinct UUIDs): publish targets and previews. */
export function TargetAccountIds(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], format: 'uuid', minItems: 1, maxItems: MAX_TARGET_ACCOUNTS, uniqueItems: true, description }),
    Optional(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_TARGET_ACCOUNTS),
    ArrayUnique({ message: '$property must not list an account twice' }),
    IsUUID('all', { each: true, message: '$property must contain UUIDs' }),
  ) as PropertyDecorator;
}

/** `cancel` and `retry`: only the revision the caller saw. */
export class PublicationTransitionRequest {
  @ApiProperty(REVISION)
  @IsInt({ message: '$property must be an integer' })
  @Min(1)
  @Max(MAX_REVISION)
  expected_revision: number;
}

/** Targets of schedule and publish-now: a social set or a list of accounts, never both. */
export class PublicationTargetsRequest extends PublicationTransitionRequest {
  @ApiPropertyOptional({
    format: 'uuid',
    description: "a social set of the publication's workspace: its accounts are the targets (not with account_ids)",
  })
  @Optional()
  @IsUUID('all', { message: '$property must be a UUID' })
  social_set_id?: string;

  @TargetAccountIds("active accounts of the publication's workspace, one rendition each (not with social_set_id)")
  account_ids?: string[];
}

/** `POST /publications/{id}/schedule`. */
export class SchedulePublicationRequest extends PublicationTargetsRequest {
  @ApiProperty({ format: 'date-time', description: 'RFC 3339; not more than 60 s in the past, at most 2 years ahead' })
  @IsRfc3339DateTime()
  scheduled_at: string;
}

/** `POST /publications/{id}/publish-now`: targets are needed when the publication has none yet. */
export class PublishNowRequest extends PublicationTargetsRequest {}

/** One try at sending a rendition to its network (`GET /publications/{id}/deliveries`). */
export class DeliveryAttempt {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) rendition_id: string;
  @ApiProperty({ type: 'integer', description: "1 for the rendition's first attempt" }) attempt: number;
  @ApiProperty({ format: 'date-time' }) started_at: string;
  @ApiProperty({ description: '"" while the call is in flight, else RFC 3339' }) finished_at: string;
  @ApiProperty({
    enum: ['submitted', 'live', 'retry', 'rejected', 'ambiguous'],
    description:
      'submitted: in flight; retry: a retryable error, tried again later; ambiguous: the answer was lost, reconciled with the network',
  })
  outcome: string;
  @ApiProperty() error_code: string;
  @ApiProperty() error_message: string;
  @ApiProperty({ type: 'integer', description: "the network's HTTP status, 0 when none" }) http_status: number;
}

export class DeliveryAttemptList {
  @ApiProperty({ type: [DeliveryAttempt], description: 'oldest first' }) attempts: DeliveryAttempt[];
}

// ---- durable events (JetStream, through the publishing outbox) ----

export const RENDITION_PUBLISHED_SUBJECT = 'durable.publishing.rendition.published';
export const RENDITION_FAILED_SUBJECT = 'durable.publishing.rendition.failed';
export const RENDITION_NEEDS_ATTENTION_SUBJECT = 'durable.publishing.rendition.needs-attention';
/** The publication's derived status became `published` (every rendition live), in the transaction of the last outcome. */
export const PUBLICATION_PUBLISHED_SUBJECT = 'durable.publishing.publication.published';
/** The publication's derived status became `failed` (nothing left to deliver, at least one rendition failed). */
export const PUBLICATION_FAILED_SUBJECT = 'durable.publishing.publication.failed';

/** Payload of PUBLICATION_PUBLISHED_SUBJECT and PUBLICATION_FAILED_SUBJECT. */
export interface PublicationOutcomeEvent {
  workspace_id: string;
  publication_id: string;
  /** `published` or `failed`. */
  status: string;
  /** RFC 3339. */
  occurred_at: string;
}

/** What every rendition event carries. */
export interface RenditionEventBase {
  workspace_id: string;
  publication_id: string;
  rendition_id: string;
  social_account_id: string;
  platform: string;
  /** The attempt it concerns (1-based). */
  attempt: number;
  /** RFC 3339. */
  occurred_at: string;
}

/** The rendition is live on its network. */
export interface RenditionPublishedEvent extends RenditionEventBase {
  external_id: string;
  external_url: string;
}

/** The network refused it, or retries ran out: the rendition failed. */
export interface RenditionFailedEvent extends RenditionEventBase {
  error_code: string;
  error_kind: string;
  error_message: string;
  error_action: string;
  /** `rejected` or `retries_exhausted`. */
  terminal_reason: string;
}

/** Nobody can tell whether it was posted (manual_resolution): a person must look. */
export interface RenditionNeedsAttentionEvent extends RenditionEventBase {
  error_code: string;
  error_message: string;
  error_action: string;
}
