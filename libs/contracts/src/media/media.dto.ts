import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsString, IsUUID, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsQueryInteger } from '../common/query-integer.js';
import { SchemaName } from '../common/schema-name.js';

export const MEDIA_FILENAME_MAX_LENGTH = 255;
export const MEDIA_TAG_NAME_MAX_LENGTH = 64;
/** Contract §6 defaults; instance settings `media_upload_limit_bytes`, `media_video_upload_limit_bytes`. */
export const MEDIA_UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;
export const MEDIA_VIDEO_UPLOAD_LIMIT_BYTES = 4 * 1024 * 1024 * 1024;
/** The largest size a request may declare at all (JSON integers stay exact below 2^53). */
export const MEDIA_SIZE_MAX = Number.MAX_SAFE_INTEGER;
/** Upload sessions (and their URLs) expire after an hour. */
export const UPLOAD_SESSION_TTL_MS = 60 * 60 * 1000;
export const MEDIA_PAGE_MAX = 100;
export const MEDIA_PAGE_DEFAULT = 50;
export const MAX_TAGS_PER_MEDIA_ITEM = 50;
export const MAX_MEDIA_TAGS_PER_WORKSPACE = 1_000;
export const MEDIA_ITEM_STATUSES = ['pending', 'ready'] as const;

const UUID_MESSAGE = { message: '$property must be a UUID' };
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

// ---- requests ----

/** E17. */
export class CreateUploadSessionRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty({ minLength: 1, maxLength: MEDIA_FILENAME_MAX_LENGTH })
  @IsString()
  @Length(1, MEDIA_FILENAME_MAX_LENGTH)
  filename: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description:
      'bytes; at most 50 MiB, 4 GiB for videos (a `video/*` mime_type or a video file extension); instance settings change both; 413 above',
  })
  @IsInt({ message: '$property must be an integer' })
  @Min(1)
  @Max(MEDIA_SIZE_MAX)
  size: number;

  @ApiPropertyOptional({
    maxLength: 255,
    description: 'the type the client believes it is (`type/subtype`); the real one is sniffed from the bytes at completion',
  })
  @Optional()
  @IsString()
  @Matches(MIME_TYPE, { message: '$property must be a media type such as image/png' })
  mime_type?: string;

  @ApiPropertyOptional({
    pattern: '^[0-9a-f]{64}$',
    description: 'SHA-256 of the file (hex); with the size it deduplicates against ready items of the workspace',
  })
  @Optional()
  @IsString()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: '$property must be 64 hexadecimal characters' })
  sha256?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'the video-project asset this upload is for (stored)' })
  @Optional()
  @IsUUID('all', UUID_MESSAGE)
  project_asset_id?: string;
}

export class CompleteUploadSessionRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;
}

export class ListMediaQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'only items carrying this tag' })
  @Optional()
  @IsUUID('all', UUID_MESSAGE)
  tag_id?: string;

  @ApiPropertyOptional({ maxLength: 500, description: "the previous page's next_cursor, with the same workspace_id and tag_id" })
  @Optional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MEDIA_PAGE_MAX, default: MEDIA_PAGE_DEFAULT })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(MEDIA_PAGE_MAX)
  limit?: number;
}

export class SetMediaTagsRequest {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    maxItems: MAX_TAGS_PER_MEDIA_ITEM,
    description: "every tag of the item, replacing the previous ones (tags of the item's workspace; repeats count once)",
  })
  @IsArray()
  @ArrayMaxSize(MAX_TAGS_PER_MEDIA_ITEM)
  @IsUUID('all', { each: true, message: '$property must contain only UUIDs' })
  tag_ids: string[];
}

export class ListMediaTagsQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;
}

const TAG_NAME = { minLength: 1, maxLength: MEDIA_TAG_NAME_MAX_LENGTH, description: 'unique in the workspace ignoring case' };

/** E18. */
export class CreateMediaTagRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty(TAG_NAME)
  @IsString()
  @Length(1, MEDIA_TAG_NAME_MAX_LENGTH)
  name: string;
}

export class UpdateMediaTagRequest {
  @ApiProperty(TAG_NAME)
  @IsString()
  @Length(1, MEDIA_TAG_NAME_MAX_LENGTH)
  name: string;
}

// ---- responses ----

export class MediaUploadTarget {
  @ApiProperty({ description: '"PUT", or "" when deduplicated' }) method: string;
  @ApiProperty({ description: 'where to PUT the raw bytes (no bearer token: the URL is signed); "" when deduplicated' }) url: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'headers to send with the bytes; {} when deduplicated',
  })
  headers: Record<string, string>;
  @ApiProperty({ description: '"" when deduplicated' }) object_key: string;
  @ApiProperty({ description: 'RFC 3339; after it the URL answers 410; "" when deduplicated' }) expires_at: string;
}

@SchemaName('CreateMediaUploadSessionResponse')
export class MediaUploadSession {
  @ApiProperty({ format: 'uuid', description: 'the new item, or the existing one when deduplicated' }) media_id: string;
  @ApiProperty({ description: 'true when a ready item with this sha256 and size exists: nothing to upload' }) deduped: boolean;
  @ApiProperty({ description: 'POST {workspace_id} here after the upload; "" when deduplicated' }) complete_url: string;
  @ApiProperty({ description: 'as sent, else ""' }) project_asset_id: string;
  @ApiProperty({ type: MediaUploadTarget }) upload: MediaUploadTarget;
}

export class MediaItem {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty() filename: string;
  @ApiProperty({ description: 'sniffed from the bytes at completion ("" while pending)' }) mime_type: string;
  @ApiProperty({ type: 'integer', description: 'bytes' }) size: number;
  @ApiProperty({ description: 'SHA-256 of the bytes, hex ("" while pending)' }) sha256: string;
  @ApiProperty({ enum: MEDIA_ITEM_STATUSES }) status: string;
  @ApiProperty({ type: 'integer', description: '0 where unknown or not applicable' }) width: number;
  @ApiProperty({ type: 'integer', description: '0 where unknown or not applicable' }) height: number;
  @ApiProperty({ type: 'integer', description: '0 where unknown or not applicable' }) duration_ms: number;
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uuid' }, description: 'by tag name ignoring case' }) tag_ids: string[];
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
}

export class MediaList {
  @ApiProperty({ type: [MediaItem], description: 'ready items, newest first' }) items: MediaItem[];
  @ApiProperty({ description: 'pass as `cursor` for the next page; "" on the last page' }) next_cursor: string;
}

export class MediaTag {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'integer', description: 'items carrying the tag' }) item_count: number;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
}

export class MediaTagList {
  @ApiProperty({ type: [MediaTag], description: 'every tag of the workspace, by name ignoring case' }) tags: MediaTag[];
}

// ---- internal (gateway ↔ media) ----

/**
 * Where the gateway writes an upload's bytes (media.upload-sessions.target):
 * a key of this PUT alone (`<item key>/uploads/<nonce>`), which
 * media.upload-sessions.commit then makes the session's.
 */
export class UploadTarget {
  object_key: string;
  size: number;
  /**
   * media_upload_limit_bytes: when `size` allows more (a video was declared), bytes sniffed as
   * anything but a video are cut off past this while they stream in (docs/decisions.md).
   */
  non_video_size_limit?: number;
}

/** The gateway's commit of a stored upload (media.upload-sessions.commit, `params.id`). */
export class CommitUploadRequest {
  @IsString()
  object_key: string;
}

/** The answer of media.upload-sessions.commit: the stored bytes are the session's. */
export class UploadCommitted {
  committed: true;
}

/** Where the gateway reads an item's bytes (media.library.content). */
export class MediaContentTarget {
  object_key: string;
  mime_type: string;
  size: number;
  filename: string;
}
