import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsIn, IsInt, IsString, IsUUID, Length, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsQueryInteger } from '../common/query-integer.js';
import { VIDEO_DOCUMENT_MAX_DEPTH, type VideoDocument } from './video-document.js';

export const VIDEO_PROJECT_NAME_MAX_LENGTH = 120;
export const VIDEO_PROJECTS_PAGE_MAX = 100;
export const VIDEO_PROJECTS_PAGE_DEFAULT = 50;
/** A trashed project can be restored this long; the sweep purges it after. */
export const VIDEO_PROJECT_RETENTION_DAYS = 30;
/** `head_revision` is a PostgreSQL integer. */
export const MAX_VIDEO_REVISION = 2_147_483_647;
export const VIDEO_SYNC_STATUSES = ['pending', 'synced', 'attention'] as const;

const UUID_MESSAGE = { message: '$property must be a UUID' };

/**
 * The client's own document. Documented here, and allowed (so the class's own `undefined` field is not
 * "unexpected"), but deliberately without validation rules: bodies carrying one are checked with
 * `validateInputWithDocument`, which takes it aside (a 5 MiB tree is never class-transformed) and
 * checks it once (`videoDocumentError` at the gateway, which then sends the service its JSON text: `document_json`).
 */
function DocumentMember(): PropertyDecorator {
  return applyDecorators(
    Allow(),
    ApiProperty({
      type: 'object',
      additionalProperties: true,
      description:
        "the client's own JSON object, stored and answered unchanged: any members at any depth " +
        `(at most ${VIDEO_DOCUMENT_MAX_DEPTH} levels of objects and arrays; no U+0000 or unpaired surrogates); ` +
        'an array, string, number or null is 422 at `body.document`. Project assets (E20) ' +
        'it names (their id as a whole string or key anywhere) are `required`',
    }),
  ) as PropertyDecorator;
}

export class CreateVideoProjectRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty({ minLength: 1, maxLength: VIDEO_PROJECT_NAME_MAX_LENGTH })
  @IsString()
  @Length(1, VIDEO_PROJECT_NAME_MAX_LENGTH)
  name: string;

  @DocumentMember()
  document: VideoDocument;
}

export class ReplaceVideoProjectRequest {
  @ApiProperty({ format: 'uuid', description: "the project's own workspace (422 otherwise)" })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: VIDEO_PROJECT_NAME_MAX_LENGTH, description: 'left out: the name stays' })
  @Optional()
  @IsString()
  @Length(1, VIDEO_PROJECT_NAME_MAX_LENGTH)
  name?: string;

  @DocumentMember()
  document: VideoDocument;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_VIDEO_REVISION,
    description:
      'the `head_revision` the change is based on; another one is 409 `revision_conflict` (with `current_revision`) and nothing changes',
  })
  @IsInt({ message: '$property must be an integer' })
  @Min(1)
  @Max(MAX_VIDEO_REVISION)
  expected_head_revision: number;
}

/** E19. */
export class RestoreVideoRevisionRequest {
  @ApiProperty({ format: 'uuid', description: "the project's own workspace (422 otherwise)" })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_VIDEO_REVISION,
    description: 'a revision of the project (404 when it has none such)',
  })
  @IsInt({ message: '$property must be an integer' })
  @Min(1)
  @Max(MAX_VIDEO_REVISION)
  revision: number;
}

export class ListVideoProjectsQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'true: the trash (trashed projects, still restorable) instead of the active projects',
  })
  @Optional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsIn([true, false], { message: '$property must be true or false' })
  trashed?: boolean;

  @ApiPropertyOptional({ maxLength: 500, description: "the previous page's next_cursor, with the same workspace_id and trashed" })
  @Optional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: VIDEO_PROJECTS_PAGE_MAX, default: VIDEO_PROJECTS_PAGE_DEFAULT })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(VIDEO_PROJECTS_PAGE_MAX)
  limit?: number;
}

export class ListVideoRevisionsQuery {
  @ApiPropertyOptional({ maxLength: 500, description: "the previous page's next_cursor" })
  @Optional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: VIDEO_PROJECTS_PAGE_MAX, default: VIDEO_PROJECTS_PAGE_DEFAULT })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(VIDEO_PROJECTS_PAGE_MAX)
  limit?: number;
}

// ---- responses ----

/** Every member of VideoProject but the document (list items). */
export class VideoProjectSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'starts at 1; every replace and E19 adds 1' }) head_revision: number;
  @ApiProperty({
    enum: VIDEO_SYNC_STATUSES,
    description:
      'from the project assets that are `required` (named by the head document): ' +
      '`attention` when one failed, else `pending` while one is not ready, else `synced`',
  })
  sync_status: string;
  @ApiProperty({ description: '`asset_failed` with `attention`, else ""' }) attention_reason: string;
  @ApiProperty({ description: 'no previews are rendered yet: ""' }) preview_object_key: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'uuid' }) created_by_user_id: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'the last write (replace, E19, trash, restore)' }) updated_at: string;
  @ApiProperty({ format: 'uuid' }) updated_by_user_id: string;
  @ApiProperty({ description: 'RFC 3339 when in the trash, else ""' }) trashed_at: string;
  @ApiProperty({ description: 'RFC 3339 (trashed_at + 30 days) when in the trash, else ""; purged after it' }) retention_expires_at: string;
}

export class VideoProject extends VideoProjectSummary {
  @ApiProperty({ type: 'object', additionalProperties: true, description: "the head revision's document, as the client sent it" })
  document: VideoDocument;
}

export class VideoProjectList {
  @ApiProperty({ type: [VideoProjectSummary], description: 'newest first; without their documents (GET one for it)' })
  projects: VideoProjectSummary[];
  @ApiProperty({ description: 'pass as `cursor` for the next page; "" on the last page' }) next_cursor: string;
}

export class VideoRevisionSummary {
  @ApiProperty({ type: 'integer' }) revision: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'uuid' }) created_by_user_id: string;
}

export class VideoRevisionList {
  @ApiProperty({ type: [VideoRevisionSummary], description: 'newest first' }) revisions: VideoRevisionSummary[];
  @ApiProperty({ description: 'pass as `cursor` for the next page; "" on the last page' }) next_cursor: string;
}

export class VideoProjectRevision extends VideoRevisionSummary {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'the document as the client sent it' }) document: VideoDocument;
}
