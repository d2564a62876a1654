import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, Length, Max, MaxLength, Min } from 'class-validator';
import { DOCUMENT_LIST_BUDGET_BYTES } from '../common/message-size.js';
import { Optional } from '../common/optional.js';
import { IsQueryInteger } from '../common/query-integer.js';
import { DocumentMember, IMAGE_EXPORT_FORMATS, ImageEditorDocument } from './image-document.js';

export const DESIGN_NAME_MAX_LENGTH = 200;
export const REVISION_NAME_MAX_LENGTH = 200;
export const DESIGN_PAGE_MAX = 100;
export const DESIGN_PAGE_DEFAULT = 50;
export const REVISION_KINDS = ['autosave', 'checkpoint', 'restore'] as const;
/** Autosaves expire after 7 days; the newest 50 of a design are kept (older ones go at the next autosave). */
export const AUTOSAVE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const AUTOSAVES_KEPT = 50;
/** A page of designs stops early once its documents reach this many bytes of JSON (the page crosses NATS whole): 4 MiB. */
export const DESIGN_PAGE_MAX_BYTES = DOCUMENT_LIST_BUDGET_BYTES;

const UUID_MESSAGE = { message: '$property must be a UUID' };

export class CreateDesignRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty({ minLength: 1, maxLength: DESIGN_NAME_MAX_LENGTH })
  @IsString()
  @Length(1, DESIGN_NAME_MAX_LENGTH)
  name: string;

  @DocumentMember(false, 'the design (ImageEditorDocument); exactly one of `document` and `template_id`')
  document?: ImageEditorDocument;

  @ApiPropertyOptional({
    maxLength: 100,
    description:
      'a template to start from: a built-in preset key or a template id of the workspace; its document is copied (unknown: 422 here)',
  })
  @Optional()
  @IsString()
  @Length(1, 100)
  template_id?: string;
}

export class ListDesignsQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiPropertyOptional({ maxLength: 500, description: "the previous page's next_cursor, with the same workspace_id" })
  @Optional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: DESIGN_PAGE_MAX, default: DESIGN_PAGE_DEFAULT })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(DESIGN_PAGE_MAX)
  limit?: number;
}

export class ListRevisionsQuery {
  @ApiPropertyOptional({ maxLength: 500, description: "the previous page's next_cursor, for the same design" })
  @Optional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: DESIGN_PAGE_MAX, default: DESIGN_PAGE_DEFAULT })
  @Optional()
  @IsQueryInteger()
  @Min(1)
  @Max(DESIGN_PAGE_MAX)
  limit?: number;
}

/** PATCH: at least one member; each one sent replaces the stored one and records an `autosave` revision. */
export class UpdateDesignRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: DESIGN_NAME_MAX_LENGTH })
  @Optional()
  @IsString()
  @Length(1, DESIGN_NAME_MAX_LENGTH)
  name?: string;

  @DocumentMember(false, 'the whole design (ImageEditorDocument), replacing the stored one')
  document?: ImageEditorDocument;
}

export class CreateRevisionRequest {
  @ApiPropertyOptional({ maxLength: REVISION_NAME_MAX_LENGTH, default: '', description: 'a label for the checkpoint' })
  @Optional()
  @IsString()
  @MaxLength(REVISION_NAME_MAX_LENGTH)
  name?: string;
}

export class ExportDesignRequest {
  @ApiPropertyOptional({ maxLength: 100, description: 'the page to render (default: the first page); unknown: 422 here' })
  @Optional()
  @IsString()
  @Length(1, 100)
  page_id?: string;

  @ApiPropertyOptional({ enum: IMAGE_EXPORT_FORMATS, default: 'png' })
  @Optional()
  @IsIn(IMAGE_EXPORT_FORMATS, { message: `$property must be one of: ${IMAGE_EXPORT_FORMATS.join(', ')}` })
  format?: string;
}

// ---- responses ----

export class ImageEditorDesign {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty() name: string;
  @ApiProperty({
    type: ImageEditorDocument,
    description: "the stored document: the document's, pages' and layers' own members always present",
  })
  document: ImageEditorDocument;
  @ApiProperty({ format: 'uuid', description: 'the newest revision' }) head_revision_id: string;
  @ApiProperty({ description: 'the media item rendered from the first page at the last checkpoint ("" before)' }) preview_media_id: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

export class ImageEditorDesignList {
  @ApiProperty({ type: [ImageEditorDesign], description: 'most recently updated first' }) designs: ImageEditorDesign[];
  @ApiProperty({ description: 'pass as `cursor` for the next page; "" on the last page' }) next_cursor: string;
}

export class RevisionActor {
  @ApiProperty({ description: 'true when the caller made this revision' }) is_current_user: boolean;
  @ApiProperty({ description: "the author's display name when the revision was made" }) name: string;
}

export class RevisionSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer', description: '1, 2, … per design' }) revision: number;
  @ApiProperty({
    enum: REVISION_KINDS,
    description: "`autosave` (PATCH), `checkpoint` (POST …/revisions, and the design's creation), `restore`",
  })
  kind: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: RevisionActor }) actor: RevisionActor;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ description: 'autosaves: created_at + 7 days; checkpoints and restores never expire: ""' }) expires_at: string;
}

export class ImageEditorRevisionList {
  @ApiProperty({ type: [RevisionSummary], description: 'newest first; expired autosaves are gone' }) revisions: RevisionSummary[];
  @ApiProperty({ description: 'pass as `cursor` for the next page; "" on the last page' }) next_cursor: string;
}

export class ImageEditorRevision {
  @ApiProperty({ description: 'the media item rendered from the first page when this checkpoint was made ("" for other revisions)' })
  cover_preview_media_id: string;
  @ApiProperty({ type: ImageEditorDocument }) document: ImageEditorDocument;
  @ApiProperty({ type: RevisionSummary }) summary: RevisionSummary;
}
