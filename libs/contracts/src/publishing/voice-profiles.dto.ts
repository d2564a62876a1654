import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsObjectList } from '../common/object-list.js';

export const VOICE_PROFILE_NAME_MAX_LENGTH = 80;
/** Profiles are picked from a menu (409 `too_many_voice_profiles` beyond). */
export const MAX_VOICE_PROFILES_PER_WORKSPACE = 100;
/** Accounts one profile may be assigned to in one request; the default profile covers the rest. */
export const MAX_VOICE_PROFILE_ASSIGNMENTS = 100;
/** The version of the stored definition's shape; bumped when VoiceDefinition changes incompatibly. */
export const VOICE_DEFINITION_SCHEMA_VERSION = 1;
/** Largest `expected_revision` accepted (E14, publication PATCH): `revision` is a PostgreSQL integer. */
export const MAX_REVISION = 2_147_483_647;

/**
 * Caps that keep a definition a prompt-sized document (its whole text goes to
 * the AI provider with every angle request) while leaving room for a real voice.
 */
export const VOICE_LIMITS = {
  listItems: 50,
  listItemLength: 500,
  shortText: 80,
  identitySummary: 2_000,
  corrections: 50,
  correctionText: 2_000,
  examples: 20,
  exampleText: 5_000,
  examplePlatform: 80,
  exampleWhy: 1_000,
  interviewAnswers: 50,
  question: 1_000,
  answer: 5_000,
} as const;

/** An array of non-empty strings; the message names the first bad item, so `body.definition.traits` alone still says where. */
function IsStringList(maxItems: number, maxLength: number): PropertyDecorator {
  return ValidateBy({
    name: 'isStringList',
    validator: {
      validate: (value) =>
        Array.isArray(value) &&
        value.length <= maxItems &&
        value.every((item) => typeof item === 'string' && item.length >= 1 && item.length <= maxLength),
      defaultMessage: (args) => {
        const value = args?.value as unknown;
        if (!Array.isArray(value)) return '$property must be an array of strings';
        if (value.length > maxItems) return `$property must hold at most ${maxItems} items`;
        const bad = value.findIndex((item) => typeof item !== 'string' || item.length < 1 || item.length > maxLength);
        return `$property item ${bad} must be a string of 1 to ${maxLength} characters`;
      },
    },
  });
}

/** An optional list member of a definition: non-empty strings, capped in count and length. */
function StringListMember(what: string): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: VOICE_LIMITS.listItemLength },
      maxItems: VOICE_LIMITS.listItems,
      description: what,
    })(target, key);
    Optional()(target, key);
    IsStringList(VOICE_LIMITS.listItems, VOICE_LIMITS.listItemLength)(target, key);
  };
}

/** An optional list of whole entries (corrections, examples, interview answers), each checked where it is. */
function EntryListMember(type: new () => object, maxItems: number): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ type: [type], maxItems })(target, key);
    Optional()(target, key);
    IsObjectList(type, maxItems)(target, key);
  };
}

export class VoiceCorrection {
  @ApiProperty({ maxLength: VOICE_LIMITS.correctionText, description: 'what the writer learned from the correction' })
  @IsString()
  @MaxLength(VOICE_LIMITS.correctionText)
  lesson: string;

  @ApiProperty({ maxLength: VOICE_LIMITS.correctionText, description: 'the text as drafted' })
  @IsString()
  @MaxLength(VOICE_LIMITS.correctionText)
  original: string;

  @ApiProperty({ maxLength: VOICE_LIMITS.correctionText, description: 'the text as the owner of the voice wants it' })
  @IsString()
  @MaxLength(VOICE_LIMITS.correctionText)
  preferred: string;
}

export class VoiceExample {
  @ApiProperty({ maxLength: VOICE_LIMITS.examplePlatform, description: 'where it was (or would be) posted, e.g. "linkedin"; free text' })
  @IsString()
  @MaxLength(VOICE_LIMITS.examplePlatform)
  platform: string;

  @ApiProperty({ maxLength: VOICE_LIMITS.exampleText })
  @IsString()
  @MaxLength(VOICE_LIMITS.exampleText)
  text: string;

  @ApiProperty({ maxLength: VOICE_LIMITS.exampleWhy })
  @IsString()
  @MaxLength(VOICE_LIMITS.exampleWhy)
  why_it_fits: string;
}

export class VoiceInterviewAnswer {
  @ApiProperty({ maxLength: VOICE_LIMITS.question })
  @IsString()
  @MaxLength(VOICE_LIMITS.question)
  question: string;

  @ApiProperty({ maxLength: VOICE_LIMITS.answer })
  @IsString()
  @MaxLength(VOICE_LIMITS.answer)
  answer: string;
}

/**
 * A definition as sent: every member may be left out (a list then is `[]`, a
 * text `""`); an entry of `corrections`, `examples` or `interview_answers` is
 * sent whole (its texts may be ""). Unknown members are refused where they are.
 */
export class VoiceDefinitionInput {
  @StringListMember('lines the voice never crosses')
  boundaries?: string[];

  @StringListMember('patterns the owner dislikes')
  disliked_patterns?: string[];

  @StringListMember('subjects the voice speaks on with authority')
  expertise?: string[];

  @StringListMember('phrases never to use')
  forbidden_phrases?: string[];

  @StringListMember('positions the voice holds')
  opinions?: string[];

  @StringListMember('expressions the voice comes back to')
  recurring_expressions?: string[];

  @StringListMember('character traits')
  traits?: string[];

  @StringListMember('words the voice favours')
  vocabulary?: string[];

  @ApiPropertyOptional({ maxLength: VOICE_LIMITS.shortText, description: 'free text, e.g. "casual"' })
  @Optional()
  @IsString()
  @MaxLength(VOICE_LIMITS.shortText)
  formality?: string;

  @ApiPropertyOptional({ maxLength: VOICE_LIMITS.shortText, description: 'free text, e.g. "dry"' })
  @Optional()
  @IsString()
  @MaxLength(VOICE_LIMITS.shortText)
  humor?: string;

  @ApiPropertyOptional({ maxLength: VOICE_LIMITS.shortText, description: 'free text, e.g. "en-GB"' })
  @Optional()
  @IsString()
  @MaxLength(VOICE_LIMITS.shortText)
  preferred_language?: string;

  @ApiPropertyOptional({ maxLength: VOICE_LIMITS.identitySummary, description: 'who speaks, in a few sentences' })
  @Optional()
  @IsString()
  @MaxLength(VOICE_LIMITS.identitySummary)
  identity_summary?: string;

  @EntryListMember(VoiceCorrection, VOICE_LIMITS.corrections)
  corrections?: VoiceCorrection[];

  @EntryListMember(VoiceExample, VOICE_LIMITS.examples)
  examples?: VoiceExample[];

  @EntryListMember(VoiceInterviewAnswer, VOICE_LIMITS.interviewAnswers)
  interview_answers?: VoiceInterviewAnswer[];
}

/** A definition as stored and answered: every member present. */
export class VoiceDefinition {
  @ApiProperty({ type: [String] }) boundaries: string[];
  @ApiProperty({ type: [String] }) disliked_patterns: string[];
  @ApiProperty({ type: [String] }) expertise: string[];
  @ApiProperty({ type: [String] }) forbidden_phrases: string[];
  @ApiProperty({ type: [String] }) opinions: string[];
  @ApiProperty({ type: [String] }) recurring_expressions: string[];
  @ApiProperty({ type: [String] }) traits: string[];
  @ApiProperty({ type: [String] }) vocabulary: string[];
  @ApiProperty({ description: '"" when unset' }) formality: string;
  @ApiProperty({ description: '"" when unset' }) humor: string;
  @ApiProperty({ description: '"" when unset' }) preferred_language: string;
  @ApiProperty({ description: '"" when unset' }) identity_summary: string;
  @ApiProperty({ type: [VoiceCorrection] }) corrections: VoiceCorrection[];
  @ApiProperty({ type: [VoiceExample] }) examples: VoiceExample[];
  @ApiProperty({ type: [VoiceInterviewAnswer] }) interview_answers: VoiceInterviewAnswer[];
}

const DEFINITION_DESCRIPTION = 'the voice (VoiceDefinition); members left out are stored empty ([] or "")';
const NAME_DESCRIPTION = 'unique in the workspace ignoring case';

/** The definition member of a request: an object, checked member by member. */
function DefinitionMember(): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ type: VoiceDefinitionInput, description: DEFINITION_DESCRIPTION })(target, key);
    IsObject()(target, key);
    ValidateNested()(target, key);
    Type(() => VoiceDefinitionInput)(target, key);
  };
}

export class ListVoiceProfilesQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id: string;
}

export class CreateVoiceProfileRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id: string;

  @ApiProperty({ minLength: 1, maxLength: VOICE_PROFILE_NAME_MAX_LENGTH, description: NAME_DESCRIPTION })
  @IsString()
  @Length(1, VOICE_PROFILE_NAME_MAX_LENGTH)
  name: string;

  @DefinitionMember()
  definition: VoiceDefinitionInput;

  @ApiPropertyOptional({
    default: false,
    description: "true makes it the workspace's default profile (the previous default stops being one)",
  })
  @Optional()
  @IsBoolean()
  is_default?: boolean;
}

/** E14: name and definition are replaced; `is_default` and the assignments are kept. */
export class ReplaceVoiceProfileRequest {
  @ApiProperty({ format: 'uuid', description: "the profile's own workspace (422 otherwise)" })
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id: string;

  @ApiProperty({ minLength: 1, maxLength: VOICE_PROFILE_NAME_MAX_LENGTH, description: NAME_DESCRIPTION })
  @IsString()
  @Length(1, VOICE_PROFILE_NAME_MAX_LENGTH)
  name: string;

  @DefinitionMember()
  definition: VoiceDefinitionInput;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_REVISION,
    description:
      'the `revision` the change is based on; another one is 409 `revision_conflict` (with `current_revision`) and nothing changes',
  })
  @IsInt({ message: '$property must be an integer' })
  @Min(1)
  @Max(MAX_REVISION)
  expected_revision: number;
}

export class AssignVoiceProfileRequest {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    maxItems: MAX_VOICE_PROFILE_ASSIGNMENTS,
    description:
      'every account the profile applies to, replacing the previous list (active accounts of its workspace, ' +
      'none twice); an account assigned to another profile moves to this one',
  })
  @IsArray()
  @ArrayMaxSize(MAX_VOICE_PROFILE_ASSIGNMENTS)
  @IsUUID('all', { each: true, message: '$property must contain only UUIDs' })
  account_ids: string[];
}

export class VoiceProfile {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: "whether it is the workspace's default profile (at most one is)" }) is_default: boolean;
  @ApiProperty({ type: VoiceDefinition }) definition: VoiceDefinition;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'starts at 1; every E14 adds 1' }) revision: number;
  @ApiProperty({ type: 'integer', description: 'version of the definition shape' }) schema_version: number;
  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    description: 'accounts this profile applies to, oldest connected first',
  })
  assigned_account_ids: string[];
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'last change of name, definition or default flag; assignments do not move it',
  })
  updated_at: string;
}

export class VoiceProfileList {
  @ApiProperty({ type: [VoiceProfile], description: 'every profile of the workspace, by name ignoring case' })
  voice_profiles: VoiceProfile[];
}
