import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsObject, IsString, IsUUID, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../common/optional.js';
import { MEDIA_FILENAME_MAX_LENGTH, MEDIA_SIZE_MAX } from '../media/media.dto.js';

export const PROJECT_ASSET_STATUSES = ['pending', 'ready', 'failed'] as const;
/** Assets one project may hold (409 `too_many_project_assets` beyond). */
export const MAX_PROJECT_ASSETS = 500;

const UUID_MESSAGE = { message: '$property must be a UUID' };
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

/** E20. */
export class CreateProjectAssetRequest {
  @ApiProperty({ format: 'uuid', description: "the project's own workspace (422 otherwise)" })
  @IsUUID('all', UUID_MESSAGE)
  workspace_id: string;

  @ApiProperty({ minLength: 1, maxLength: MEDIA_FILENAME_MAX_LENGTH })
  @IsString()
  @Length(1, MEDIA_FILENAME_MAX_LENGTH)
  original_filename: string;

  @ApiProperty({ maxLength: 255, description: 'the type the client believes it is; the sniffed one replaces it when the upload completes' })
  @IsString()
  @Matches(MIME_TYPE, { message: '$property must be a media type such as video/mp4' })
  mime_type: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'bytes; the E17 upload must declare the same size' })
  @IsInt({ message: '$property must be an integer' })
  @Min(1)
  @Max(MEDIA_SIZE_MAX)
  size: number;

  @ApiPropertyOptional({ maxLength: 200, default: '', description: "the client's own stable id for the source file" })
  @Optional()
  @IsString()
  @MaxLength(200)
  stable_media_id?: string;

  @ApiPropertyOptional({ maxLength: 200, default: '', description: 'the device the file comes from' })
  @Optional()
  @IsString()
  @MaxLength(200)
  device_id?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    default: {},
    description: 'free preparation settings the editor keeps with the asset (at most 16 KiB of JSON)',
  })
  @Optional()
  @IsObject()
  preparation?: Record<string, unknown>;
}

export class ProjectAsset {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty({ format: 'uuid' }) project_id: string;
  @ApiProperty({ enum: PROJECT_ASSET_STATUSES }) status: string;
  @ApiProperty({ description: 'why it failed (`content_refused`, `upload_expired`…) or ""' }) attention_reason: string;
  @ApiProperty({ description: 'its media item once ready, else ""' }) media_id: string;
  @ApiProperty() mime_type: string;
  @ApiProperty() original_filename: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) preparation: Record<string, unknown>;
  @ApiProperty({
    description:
      "whether the project's head document names it (its id as a whole JSON string or key, " +
      "anywhere): required assets, and only they, decide the project's `sync_status`",
  })
  required: boolean;
  @ApiProperty({ description: 'SHA-256 of the bytes once ready, else ""' }) sha256: string;
  @ApiProperty({ type: 'integer' }) size: number;
  @ApiProperty() stable_media_id: string;
  @ApiProperty() device_id: string;
  @ApiProperty({ format: 'uuid' }) uploaded_by_user_id: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

export class ProjectAssetList {
  @ApiProperty({ type: [ProjectAsset], description: 'every asset of the project, oldest first' }) assets: ProjectAsset[];
}

// ---- internal (media ↔ creative) ----

/** creative.project-assets.check: media asks at E17 (no principal: media has authorized the caller for the workspace). */
export interface ProjectAssetCheckRequest {
  workspace_id: string;
  project_asset_id: string;
}

export interface ProjectAssetCheck {
  project_asset_id: string;
  project_id: string;
  size: number;
}

export interface ProjectAssetCompletedEvent {
  workspace_id: string;
  project_asset_id: string;
  media_id: string;
  sha256: string;
  size: number;
  mime_type: string;
}

export interface ProjectAssetFailedEvent {
  workspace_id: string;
  project_asset_id: string;
  media_id: string;
  reason: string;
}

export interface ProjectAssetDeletedEvent {
  workspace_id: string;
  project_asset_id: string;
}
