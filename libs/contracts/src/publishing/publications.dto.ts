import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, IsUrl, IsUUID, Max, MaxLength, Min, ValidateBy, ValidateIf } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsQueryInteger } from '../common/query-integer.js';
import { IsObjectList } from '../common/object-list.js';
import { SchemaName } from '../common/schema-name.js';
import { isRfc3339DateTime, IsRfc3339DateTime } from '../common/time.js';
import { MAX_REVISION } from './voice-profiles.dto.js';
import { AttachedMediaInput, MAX_ATTACHED_MEDIA } from './publication-media.dto.js';

const MEDIA_PROPERTY: { type: [typeof AttachedMediaInput]; maxItems: number; description: string } = {
  type: [AttachedMediaInput],
  maxItems: MAX_ATTACHED_MEDIA,
  description:
    'replaces the attached media, in this order (display_order from 0); ' +
    'each a ready item of the workspace library (else 422 at its media_id). ' +
    "Publication-level media go with the first part a network receives, a segment's with its part",
};

/** Contract §4: what a publication is made for; it decides the renditions' shape per network. */
export const CONTENT_PROFILES = [
  'short_text',
  'thread',
  'link_share',
  'image_post',
  'carousel',
  'story',
  'short_video',
  'long_video',
] as const;
/** Contract §4: the statuses of publications, renditions and rendition segments. */
export const PUBLICATION_STATUSES = ['draft', 'ready', 'scheduled', 'publishing', 'published', 'failed'] as const;
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];
/** Only these may be changed (PATCH); any other status is 409 `publication_not_editable`. */
export const EDITABLE_PUBLICATION_STATUSES: readonly PublicationStatus[] = ['draft', 'ready', 'scheduled'];
export const DELIVERY_STATES = [
  'queued',
  'submitted',
  'processing',
  'provider_scheduled',
  'live',
  'rejected',
  'ambiguous',
  'manual_resolution',
] as const;
export const RECOVERY_ACTIONS = ['none', 'retry', 'reconcile', 'manual_resolution'] as const;

export const PUBLICATION_TITLE_MAX_LENGTH = 300;
export const PUBLICATION_TEXT_MAX_LENGTH = 100_000;
/** audience, goal, intent. */
export const PUBLICATION_BRIEF_MAX_LENGTH = 1_000;
export const SEGMENT_DESCRIPTION_MAX_LENGTH = 5_000;
export const URL_MAX_LENGTH = 2_048;
export const MAX_SEGMENTS = 100;
/** Largest random delay a publication may ask for (a day). */
export const MAX_RANDOM_DELAY_MINUTES = 1_440;
/** `metadata` and segment `settings`: their JSON text, and how deep they nest. */
export const JSON_MAP_MAX_LENGTH = 65_536;
export const JSON_MAP_MAX_DEPTH = 16;
export const PUBLICATIONS_PAGE_MAX = 100;
export const PUBLICATIONS_PAGE_DEFAULT = 50;
/** Widest `from`…`to` a list may ask for: a calendar's month view (six weeks) with room to spare. */
export const PUBLICATIONS_RANGE_MAX_DAYS = 92;

const TIME_STRING = '"" when unset, else an RFC 3339 UTC time with milliseconds';
const UUID_MESSAGE = { message: '$property must be a UUID' };
const HTTP_URL = { protocols: ['https', 'http'], require_protocol: true };
const HTTP_URL_MESSAGE = { message: '$property must be an http(s) URL or ""' };

function nestsWithin(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (depth === 0) return false;
  return Object.values(value).every((member) => nestsWithin(member, depth - 1));
}

/** A JSON object (map<string,any>) small and shallow enough to store as jsonb. */
function IsJsonMap(): PropertyDecorator {
  return ValidateBy({
    name: 'isJsonMap',
    validator: {
      validate: (value) =>
        !!value &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        nestsWithin(value, JSON_MAP_MAX_DEPTH) &&
        JSON.stringify(value).length <= JSON_MAP_MAX_LENGTH,
      defaultMessage: () =>
        `$property must be a JSON object of at most ${JSON_MAP_MAX_LENGTH} characters, nested at most ${JSON_MAP_MAX_DEPTH} deep`,
    },
  });
}

const JSON_MAP_PROPERTY = {
  type: 'object',
  additionalProperties: true,
  description: `any JSON object; at most ${JSON_MAP_MAX_LENGTH} characters of JSON, nested at most ${JSON_MAP_MAX_DEPTH} deep`,
} as const;

// ---- requests ----

/** E15. */
export class CreatePublicationRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty({ enum: CONTENT_PROFILES })
  @IsIn(CONTENT_PROFILES)
  content_profile: string;

  @ApiProperty({ maxLength: PUBLICATION_TITLE_MAX_LENGTH, description: 'may be ""' })
  @IsString()
  @MaxLength(PUBLICATION_TITLE_MAX_LENGTH)
  title: string;

  @ApiProperty({ maxLength: PUBLICATION_TEXT_MAX_LENGTH, description: 'the idea or draft the publication starts from; may be ""' })
  @IsString()
  @MaxLength(PUBLICATION_TEXT_MAX_LENGTH)
  source_text: string;
}

/**
 * `from` and `to` come together, `to` after `from` and at most PUBLICATIONS_RANGE_MAX_DAYS later: one unbounded or
 * huge range would read a workspace's whole history in one answer.
 */
function IsTimeRangeEnd(end: 'start' | 'end'): PropertyDecorator {
  const problem = (query: ListPublicationsQuery): string | undefined => {
    if (end === 'start') return query.to === undefined ? '$property needs to' : undefined;
    if (query.from === undefined) return '$property needs from';
    if (!isRfc3339DateTime(query.from) || !isRfc3339DateTime(query.to)) return undefined; // each says so on its own
    const span = Date.parse(query.to as string) - Date.parse(query.from);
    if (span <= 0) return '$property must be after from';
    return span > PUBLICATIONS_RANGE_MAX_DAYS * 86_400_000
      ? `$property must be at most ${PUBLICATIONS_RANGE_MAX_DAYS} days after from`
      : undefined;
  };
  return ValidateBy({
    name: 'isTimeRangeEnd',
    validator: {
      validate: (_value, args) => problem(args!.object as ListPublicationsQuery) === undefined,
      defaultMessage: (args) => problem(args!.object as ListPublicationsQuery) ?? '$property is invalid',
    },
  });
}

export class ListPublicationsQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiPropertyOptional({ enum: PUBLICATION_STATUSES, description: 'only publications in this status' })
  @Optional()
  @IsIn(PUBLICATION_STATUSES)
  status?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'with `to`: only publications whose time (when they went out, else when they are scheduled for) is at or after this ' +
      'RFC 3339 time; publications with neither (drafts) are left out',
  })
  @Optional()
  @IsRfc3339DateTime()
  @IsTimeRangeEnd('start')
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'with `from`: only publications whose time is before this RFC 3339 time, ' +
      `later than \`from\` by at most ${PUBLICATIONS_RANGE_MAX_DAYS} days`,
  })
  @Optional()
  @IsRfc3339DateTime()
  @IsTimeRangeEnd('end')
  to?: string;

  @ApiPropertyOptional({ maxLength: 500, description: "the previous page's next_cursor, with the same workspace_id, status, from and to" })
  @Optional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: PUBLICATIONS_PAGE_MAX, default: PUBLICATIONS_PAGE_DEFAULT })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(PUBLICATIONS_PAGE_MAX)
  limit?: number;
}

/** One segment as PATCH sends it (a thread post, a carousel card…); members left out are "" or {}. */
export class PublicationSegmentInput {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'an existing segment of the publication, kept (with every rendition override bound to it); left out: a new segment',
  })
  @Optional()
  @IsUUID('all', UUID_MESSAGE)
  id?: string;

  @ApiPropertyOptional({ maxLength: PUBLICATION_TITLE_MAX_LENGTH, default: '' })
  @Optional()
  @IsString()
  @MaxLength(PUBLICATION_TITLE_MAX_LENGTH)
  title?: string;

  @ApiPropertyOptional({ maxLength: PUBLICATION_TEXT_MAX_LENGTH, default: '' })
  @Optional()
  @IsString()
  @MaxLength(PUBLICATION_TEXT_MAX_LENGTH)
  body?: string;

  @ApiPropertyOptional({ maxLength: SEGMENT_DESCRIPTION_MAX_LENGTH, default: '' })
  @Optional()
  @IsString()
  @MaxLength(SEGMENT_DESCRIPTION_MAX_LENGTH)
  description?: string;

  @ApiPropertyOptional({ maxLength: URL_MAX_LENGTH, default: '', description: 'an http(s) URL or ""' })
  @Optional()
  @IsString()
  @MaxLength(URL_MAX_LENGTH)
  @ValidateIf((segment: PublicationSegmentInput) => segment.url !== '')
  @IsUrl(HTTP_URL, HTTP_URL_MESSAGE)
  url?: string;

  @ApiPropertyOptional({ ...JSON_MAP_PROPERTY, default: {} })
  @Optional()
  @IsJsonMap()
  settings?: Record<string, unknown>;

  @ApiPropertyOptional({ ...MEDIA_PROPERTY, default: [] })
  @Optional()
  @IsObjectList(AttachedMediaInput, MAX_ATTACHED_MEDIA)
  media?: AttachedMediaInput[];
}

/** PATCH /publications/{id}: members sent replace the stored ones; `segments` replaces the whole list. */
export class UpdatePublicationRequest {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'the `revision` the change is based on; another one is 409 revision_conflict' })
  @IsInt({ message: '$property must be an integer' })
  @Min(1)
  @Max(MAX_REVISION)
  expected_revision: number;

  @ApiPropertyOptional({ maxLength: PUBLICATION_TITLE_MAX_LENGTH })
  @Optional()
  @IsString()
  @MaxLength(PUBLICATION_TITLE_MAX_LENGTH)
  title?: string;

  @ApiPropertyOptional({ maxLength: PUBLICATION_TEXT_MAX_LENGTH })
  @Optional()
  @IsString()
  @MaxLength(PUBLICATION_TEXT_MAX_LENGTH)
  source_text?: string;

  @ApiPropertyOptional({ enum: CONTENT_PROFILES })
  @Optional()
  @IsIn(CONTENT_PROFILES)
  content_profile?: string;

  @ApiPropertyOptional({ maxLength: PUBLICATION_BRIEF_MAX_LENGTH, description: 'who it is for' })
  @Optional()
  @IsString()
  @MaxLength(PUBLICATION_BRIEF_MAX_LENGTH)
  audience?: string;

  @ApiPropertyOptional({ maxLength: PUBLICATION_BRIEF_MAX_LENGTH, description: 'what it should achieve' })
  @Optional()
  @IsString()
  @MaxLength(PUBLICATION_BRIEF_MAX_LENGTH)
  goal?: string;

  @ApiPropertyOptional({ maxLength: PUBLICATION_BRIEF_MAX_LENGTH, description: 'what the author means to say' })
  @Optional()
  @IsString()
  @MaxLength(PUBLICATION_BRIEF_MAX_LENGTH)
  intent?: string;

  @ApiPropertyOptional({ maxLength: URL_MAX_LENGTH, description: 'an http(s) URL or ""' })
  @Optional()
  @IsString()
  @MaxLength(URL_MAX_LENGTH)
  @ValidateIf((update: UpdatePublicationRequest) => update.source_url !== '')
  @IsUrl(HTTP_URL, HTTP_URL_MESSAGE)
  source_url?: string;

  @ApiPropertyOptional(JSON_MAP_PROPERTY)
  @Optional()
  @IsJsonMap()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_RANDOM_DELAY_MINUTES,
    description: 'each rendition is due at scheduled_at plus a random 0…N minutes of its own; sets random_delay_inherited to false',
  })
  @Optional()
  @IsInt({ message: '$property must be an integer' })
  @Min(0)
  @Max(MAX_RANDOM_DELAY_MINUTES)
  random_delay_minutes?: number;

  @ApiPropertyOptional({
    type: [PublicationSegmentInput],
    maxItems: MAX_SEGMENTS,
    description:
      'replaces every segment, in this order; an entry with the id of an existing segment ' +
      'keeps it and its rendition overrides, the overrides of segments left out are dropped',
  })
  @Optional()
  @IsObjectList(PublicationSegmentInput, MAX_SEGMENTS)
  segments?: PublicationSegmentInput[];

  @ApiPropertyOptional(MEDIA_PROPERTY)
  @Optional()
  @IsObjectList(AttachedMediaInput, MAX_ATTACHED_MEDIA)
  media?: AttachedMediaInput[];
}

// ---- responses ----

/** A media item attached to a publication, segment or rendition: the library item's facts with what the author said about it. */
export class PublicationMedia {
  @ApiProperty() id: string;
  @ApiProperty() url: string;
  @ApiProperty() role: string;
  @ApiProperty() mime_type: string;
  @ApiProperty() original_filename: string;
  @ApiProperty() alt_text: string;
  @ApiProperty() aspect_ratio: string;
  @ApiProperty() dominant_type: string;
  @ApiProperty() analysis_status: string;
  @ApiProperty() analysis_error: string;
  @ApiProperty() poster_thumbnail_url: string;
  @ApiProperty({ description: TIME_STRING }) public_url_checked_at: string;
  @ApiProperty() public_url_error: string;
  @ApiProperty({ type: 'integer' }) public_url_status: number;
  @ApiProperty() public_url_ready: boolean;
  @ApiProperty({ type: 'integer' }) display_order: number;
  @ApiProperty({ type: 'integer', description: '0 when unknown' }) duration_ms: number;
  @ApiProperty({ type: 'integer' }) width: number;
  @ApiProperty({ type: 'integer' }) height: number;
  @ApiProperty({ type: 'integer', description: 'bytes' }) size: number;
  @ApiProperty({ type: 'integer' }) thumbnail_timestamp_ms: number;
  @ApiProperty({ description: '0 when unknown' }) frame_rate: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) settings: Record<string, unknown>;
}

export class PublicationSegment {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer', description: 'from 0, in order' }) position: number;
  @ApiProperty() title: string;
  @ApiProperty() body: string;
  @ApiProperty() description: string;
  @ApiProperty({ description: '"" or an http(s) URL' }) url: string;
  @ApiProperty({ type: [PublicationMedia] }) media: PublicationMedia[];
  @ApiProperty({ type: 'object', additionalProperties: true }) settings: Record<string, unknown>;
}

/** A rendition's delivery to its network: the attempt in progress and how it ended. */
export class Delivery {
  @ApiProperty({ enum: DELIVERY_STATES }) state: string;
  @ApiProperty({ enum: RECOVERY_ACTIONS }) recovery_action: string;
  @ApiProperty() target_key: string;
  @ApiProperty({ description: '"" until an attempt starts' }) current_attempt_id: string;
  @ApiProperty({ type: 'integer', description: '0 until an attempt starts' }) current_attempt_number: number;
  @ApiProperty({ description: TIME_STRING }) current_attempt_created_at: string;
  @ApiProperty() external_id: string;
  @ApiProperty() external_url: string;
  @ApiProperty() error_code: string;
  @ApiProperty() error_kind: string;
  @ApiProperty({ type: 'integer', description: '0 when none' }) error_http_status: number;
  @ApiProperty() terminal_reason: string;
  @ApiProperty({ description: TIME_STRING }) last_reconciled_at: string;
  @ApiProperty({ description: TIME_STRING }) next_reconciliation_at: string;
}

/** What the network answered for a rendition or one of its segments (members shared by both). */
export abstract class PublishOutcome {
  @ApiProperty() external_id: string;
  @ApiProperty() external_url: string;
  @ApiProperty() error_action: string;
  @ApiProperty() error_code: string;
  @ApiProperty() error_kind: string;
  @ApiProperty() error_message: string;
  @ApiProperty({ type: 'integer' }) error_http_status: number;
  @ApiProperty() error_retryable: boolean;
  @ApiProperty({ description: TIME_STRING }) error_retry_at: string;
}

export class RenditionSegment extends PublishOutcome {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'the publication segment it renders; "" when that one was replaced' }) publication_segment_id: string;
  @ApiProperty({ type: 'integer' }) position: number;
  @ApiProperty({ enum: PUBLICATION_STATUSES }) status: string;
  @ApiProperty() title: string;
  @ApiProperty() body: string;
  @ApiProperty() description: string;
  @ApiProperty() url: string;
  @ApiProperty({ description: '"" when the segment\'s own is used' }) title_override: string;
  @ApiProperty() body_override: string;
  @ApiProperty() description_override: string;
  @ApiProperty() url_override: string;
  @ApiProperty({ description: "true while the publication segment's media are used" }) media_inherited: boolean;
  @ApiProperty({ type: [PublicationMedia] }) media: PublicationMedia[];
  @ApiProperty({ type: 'object', additionalProperties: true }) settings: Record<string, unknown>;
}

/** One per target account and platform; created when a publication is scheduled. */
export class Rendition extends PublishOutcome {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) publication_id: string;
  @ApiProperty({ format: 'uuid' }) social_account_id: string;
  @ApiProperty() platform: string;
  @ApiProperty() target_key: string;
  @ApiProperty() profile: string;
  @ApiProperty() output_profile: string;
  @ApiProperty({ enum: PUBLICATION_STATUSES }) status: string;
  @ApiProperty() title: string;
  @ApiProperty() body: string;
  @ApiProperty() description: string;
  @ApiProperty() format_locked: boolean;
  @ApiProperty({ description: '"" when the publication\'s schedule applies' }) schedule_override: string;
  @ApiProperty({ type: [PublicationMedia] }) media: PublicationMedia[];
  @ApiProperty({ type: 'object', additionalProperties: true }) settings: Record<string, unknown>;
  @ApiProperty({ type: Delivery }) delivery: Delivery;
  @ApiProperty({ type: [RenditionSegment] }) segments: RenditionSegment[];
}

export class RepostStage {
  @ApiProperty({ type: 'integer' }) delay_seconds: number;
  @ApiProperty() unrepost_previous: boolean;
}

export class RepostRule {
  @ApiProperty({ type: 'integer' }) delay_seconds: number;
  @ApiProperty({ type: 'integer' }) evaluation_window_seconds: number;
  @ApiProperty({ type: 'integer' }) min_comments: number;
  @ApiProperty({ type: 'integer' }) min_likes: number;
  @ApiProperty({ type: 'integer' }) min_reposts: number;
  @ApiProperty({ type: 'integer' }) min_views: number;
  @ApiProperty({ type: 'integer' }) plateau_checks: number;
  @ApiProperty() require_plateau: boolean;
  @ApiProperty({ description: 'known value: all' }) threshold_mode: string;
  @ApiProperty({ type: [RepostStage] }) stages: RepostStage[];
}

export class RepostOverride {
  @ApiProperty({ description: "known value: inherit (the workspace's repost settings apply)" }) mode: string;
  @ApiProperty({ type: [String] }) target_account_ids: string[];
  @ApiProperty({ type: RepostRule }) rule: RepostRule;
}

@SchemaName('PublicationResponse')
export class Publication {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty({ enum: PUBLICATION_STATUSES }) status: string;
  @ApiProperty({ type: 'integer', description: 'starts at 1; every change adds 1' }) revision: number;
  @ApiProperty({ enum: CONTENT_PROFILES }) content_profile: string;
  @ApiProperty() title: string;
  @ApiProperty() source_text: string;
  @ApiProperty({ description: '"" or an http(s) URL' }) source_url: string;
  @ApiProperty() audience: string;
  @ApiProperty() goal: string;
  @ApiProperty() intent: string;
  @ApiProperty({ description: '"" unless the publication was built from a preset' }) creation_preset: string;
  @ApiProperty({ description: '"" until scheduled to a social set' }) social_set_id: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata: Record<string, unknown>;
  @ApiProperty({ type: [PublicationMedia] }) media: PublicationMedia[];
  @ApiProperty({ type: [PublicationSegment] }) segments: PublicationSegment[];
  @ApiProperty({ type: [Rendition], description: 'one per target account, created by scheduling' }) renditions: Rendition[];
  @ApiProperty({ description: "true while the workspace's random delay applies" }) random_delay_inherited: boolean;
  @ApiProperty({ type: 'integer' }) random_delay_minutes: number;
  @ApiProperty({ type: RepostOverride }) repost_override: RepostOverride;
  @ApiProperty({ description: TIME_STRING }) scheduled_at: string;
  @ApiProperty({ description: TIME_STRING }) actual_run_at: string;
  @ApiProperty({ description: TIME_STRING }) failure_dismissed_at: string;
  @ApiProperty({ format: 'uuid', description: 'the user who created it' }) created_by: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class PublicationList {
  @ApiProperty({ type: [Publication], description: 'newest first' }) publications: Publication[];
  @ApiProperty({ description: 'pass as `cursor` for the next page; "" on the last page' }) next_cursor: string;
}
