import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { Optional } from '../common/optional.js';
import { SchemaName } from '../common/schema-name.js';

/** E16 caps: one prompt stays well inside a model's context window, and accounts match a workspace's social sets. */
export const ANGLES_IDEA_MAX_LENGTH = 5_000;
export const ANGLES_CONTEXT_NOTES_MAX_LENGTH = 5_000;
export const ANGLES_DIRECTION_MAX_LENGTH = 1_000;
export const ANGLES_MAX_ACCOUNTS = 50;
/** How many angles an answer holds (docs/decisions.md). */
export const ANGLES_MIN_COUNT = 3;
export const ANGLES_MAX_COUNT = 5;

/** E16 body. */
export class PlanPublicationAnglesRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id: string;

  @ApiProperty({ minLength: 1, maxLength: ANGLES_IDEA_MAX_LENGTH, description: 'what the publication is about; not blank' })
  @IsString()
  @Matches(/\S/, { message: '$property must not be blank' })
  @MaxLength(ANGLES_IDEA_MAX_LENGTH)
  idea: string;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: ANGLES_MAX_ACCOUNTS,
    uniqueItems: true,
    description: 'accounts of the workspace the publication is meant for; their networks and handles reach the model',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(ANGLES_MAX_ACCOUNTS)
  @ArrayUnique({ message: '$property must not list an account twice' })
  @IsUUID('all', { each: true, message: '$property must contain UUIDs' })
  account_ids?: string[];

  @ApiPropertyOptional({ format: 'uuid', description: 'a social set of the workspace; its name reaches the model' })
  @Optional()
  @IsUUID('all', { message: '$property must be a UUID' })
  social_set_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'a voice profile of the workspace; its definition reaches the model' })
  @Optional()
  @IsUUID('all', { message: '$property must be a UUID' })
  voice_profile_id?: string;

  @ApiPropertyOptional({ maxLength: ANGLES_CONTEXT_NOTES_MAX_LENGTH, description: 'background the model should know' })
  @Optional()
  @IsString()
  @MaxLength(ANGLES_CONTEXT_NOTES_MAX_LENGTH)
  context_notes?: string;

  @ApiPropertyOptional({ maxLength: ANGLES_DIRECTION_MAX_LENGTH, description: 'where the caller wants the angles to go' })
  @Optional()
  @IsString()
  @MaxLength(ANGLES_DIRECTION_MAX_LENGTH)
  direction?: string;
}

/** How the publication built from an angle should be made. Every member is "" when the model gave none. */
export class AngleBuildDirection {
  @ApiProperty() angle: string;
  @ApiProperty() audience: string;
  @ApiProperty() media_preference: string;
  @ApiProperty() outcome: string;
  @ApiProperty() tone_adjustment: string;
}

/** The media an angle calls for. Every member is "" when the model gave none. */
export class AngleMedia {
  @ApiProperty() brief: string;
  @ApiProperty() role: string;
  @ApiProperty() source_ref: string;
  @ApiProperty() treatment: string;
}

/** One creative direction. `label`, `hook` and `thesis` are never ""; the other strings are "" when the model gave none. */
export class PublicationAngle {
  @ApiProperty({ format: 'uuid', description: 'assigned by the platform for each answer' }) id: string;
  @ApiProperty() label: string;
  @ApiProperty() hook: string;
  @ApiProperty() thesis: string;
  @ApiProperty() approach: string;
  @ApiProperty() objective: string;
  @ApiProperty() desired_reaction: string;
  @ApiProperty() evidence: string;
  @ApiProperty({ type: AngleBuildDirection }) build_direction: AngleBuildDirection;
  @ApiProperty({ type: AngleMedia }) media: AngleMedia;
}

@SchemaName('PlanPublicationAnglesOutputBody')
export class PublicationAngles {
  @ApiProperty({ type: [PublicationAngle], minItems: ANGLES_MIN_COUNT, maxItems: ANGLES_MAX_COUNT }) angles: PublicationAngle[];
}
