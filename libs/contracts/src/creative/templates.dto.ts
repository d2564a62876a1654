import { ApiProperty } from '@nestjs/swagger';
import { IsString, IsUUID, Length } from 'class-validator';
import { DOCUMENT_LIST_BUDGET_BYTES } from '../common/message-size.js';
import { SchemaName } from '../common/schema-name.js';
import { DocumentMember, ImageEditorDocument } from './image-document.js';

export const TEMPLATE_NAME_MAX_LENGTH = 200;
export const TEMPLATE_CATEGORY_MAX_LENGTH = 80;
/**
 * Templates are picked from a menu answered whole, and the whole menu crosses NATS in one message:
 * at most 50 per workspace (409 `too_many_templates` beyond), each document at most a 50th of the
 * list budget as stored (81 KiB; 422 at `body.document`). Images are media ids, so real templates
 * are a few KiB.
 */
export const MAX_TEMPLATES_PER_WORKSPACE = 50;
export const TEMPLATE_DOCUMENT_MAX_BYTES = Math.floor(DOCUMENT_LIST_BUDGET_BYTES / MAX_TEMPLATES_PER_WORKSPACE / 1024) * 1024;

const UUID_MESSAGE = { message: '$property must be a UUID' };

export class ListTemplatesQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;
}

export class CreateTemplateRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty({ minLength: 1, maxLength: TEMPLATE_NAME_MAX_LENGTH })
  @IsString()
  @Length(1, TEMPLATE_NAME_MAX_LENGTH)
  name: string;

  @ApiProperty({ minLength: 1, maxLength: TEMPLATE_CATEGORY_MAX_LENGTH, description: 'free text, e.g. "social"' })
  @IsString()
  @Length(1, TEMPLATE_CATEGORY_MAX_LENGTH)
  category: string;

  @DocumentMember(true, 'the template (ImageEditorDocument)')
  document: ImageEditorDocument;
}

export class ImageEditorTemplate {
  @ApiProperty({ description: 'built-in templates: their preset key; workspace templates: a UUID' }) id: string;
  @ApiProperty() built_in: boolean;
  @ApiProperty({ description: 'built-in templates: ""' }) workspace_id: string;
  @ApiProperty() name: string;
  @ApiProperty() category: string;
  @ApiProperty({ description: "the size preset (the document's `preset_key`)" }) preset_key: string;
  @ApiProperty({ description: '"" (template previews are not rendered yet)' }) preview_media_id: string;
  @ApiProperty({ type: ImageEditorDocument }) document: ImageEditorDocument;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

@SchemaName('ListImageEditorTemplatesOutputBody')
export class ImageEditorTemplateList {
  @ApiProperty({ description: 'true for editors and admins of the workspace (they may create and delete its templates)' })
  can_edit: boolean;
  @ApiProperty({ type: [ImageEditorTemplate], description: "built-in templates first, then the workspace's, newest first" })
  templates: ImageEditorTemplate[];
}
