import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, IsUrl, IsUUID, Max, MaxLength, Min, ValidateBy, ValidateIf } from 'class-validator';
import { IsObjectList } from '../common/object-list.js';
import { Optional } from '../common/optional.js';
import { AttachedMediaInput, MAX_ATTACHED_MEDIA } from './publication-media.dto.js';
import {
  JSON_MAP_MAX_LENGTH,
  MAX_SEGMENTS,
  PUBLICATION_TEXT_MAX_LENGTH,
  PUBLICATION_TITLE_MAX_LENGTH,
  SEGMENT_DESCRIPTION_MAX_LENGTH,
  URL_MAX_LENGTH,
} from './publications.dto.js';
import { MAX_REVISION } from './voice-profiles.dto.js';

const KEEPS_INHERITING = '"" or left out: the publication segment\'s own value is used';

/** One part's override for one account (docs/decisions.md "Renditions inherit"). */
export class RenditionSegmentOverrideInput {
  @ApiProperty({ format: 'uuid', description: 'the publication segment the override is bound to' })
  @IsUUID('all', { message: '$property must be a UUID' })
  publication_segment_id: string;

  @ApiPropertyOptional({ maxLength: PUBLICATION_TEXT_MAX_LENGTH, description: KEEPS_INHERITING })
  @Optional()
  @IsString()
  @MaxLength(PUBLICATION_TEXT_MAX_LENGTH)
  body_override?: string;

  @ApiPropertyOptional({ maxLength: PUBLICATION_TITLE_MAX_LENGTH, description: KEEPS_INHERITING })
  @Optional()
  @IsString()
  @MaxLength(PUBLICATION_TITLE_MAX_LENGTH)
  title_override?: string;

  @ApiPropertyOptional({ maxLength: SEGMENT_DESCRIPTION_MAX_LENGTH, description: KEEPS_INHERITING })
  @Optional()
  @IsString()
  @MaxLength(SEGMENT_DESCRIPTION_MAX_LENGTH)
  description_override?: string;

  @ApiPropertyOptional({ maxLength: URL_MAX_LENGTH, description: `an http(s) URL; ${KEEPS_INHERITING}` })
  @Optional()
  @IsString()
  @MaxLength(URL_MAX_LENGTH)
  @ValidateIf((entry: RenditionSegmentOverrideInput) => entry.url_override !== '')
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true }, { message: '$property must be an http(s) URL or ""' })
  url_override?: string;

  @ApiPropertyOptional({
    type: [AttachedMediaInput],
    maxItems: MAX_ATTACHED_MEDIA,
    description: "this account's media for the part (media_inherited false; [] sends none); left out: the segment's media are inherited",
  })
  @Optional()
  @IsObjectList(AttachedMediaInput, MAX_ATTACHED_MEDIA)
  media?: AttachedMediaInput[];
}

/** `PATCH /publications/{id}/renditions/{rendition_id}`: one account's version of a scheduled publication. */
export class UpdateRenditionRequest {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: "the publication's `revision` the change is based on; another one is 409 revision_conflict",
  })
  @IsInt({ message: '$property must be an integer' })
  @Min(1)
  @Max(MAX_REVISION)
  expected_revision: number;

  @ApiPropertyOptional({
    type: [RenditionSegmentOverrideInput],
    maxItems: MAX_SEGMENTS,
    description: 'overrides per publication segment; a segment listed replaces its stored overrides, a segment left out keeps them',
  })
  @Optional()
  @IsObjectList(RenditionSegmentOverrideInput, MAX_SEGMENTS)
  segments?: RenditionSegmentOverrideInput[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: "replaces the rendition's per-network settings" })
  @Optional()
  @ValidateBy({
    name: 'isSettingsMap',
    validator: {
      validate: (value) =>
        !!value && typeof value === 'object' && !Array.isArray(value) && JSON.stringify(value).length <= JSON_MAP_MAX_LENGTH,
      defaultMessage: () => `$property must be a JSON object of at most ${JSON_MAP_MAX_LENGTH} characters`,
    },
  })
  settings?: Record<string, unknown>;
}
