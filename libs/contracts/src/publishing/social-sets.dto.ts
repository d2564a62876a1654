import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, IsUUID, Length } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsObjectList } from '../common/object-list.js';
import { SOCIAL_PLATFORMS } from './social-accounts.dto.js';

export const SOCIAL_SET_NAME_MAX_LENGTH = 80;
/** A set is a publishing target picked in one click: a hundred accounts is already more than a screen shows. */
export const MAX_SOCIAL_SET_ACCOUNTS = 100;
/** Sets are a short menu, not a directory (409 `too_many_social_sets` beyond). */
export const MAX_SOCIAL_SETS_PER_WORKSPACE = 200;

export class SocialSetAccountRef {
  @ApiProperty({ format: 'uuid', description: 'an active connected account of the same workspace' })
  @IsUUID('all', { message: '$property must be a UUID' })
  social_account_id: string;
}

const NAME_DESCRIPTION = 'unique in the workspace ignoring case';
const ACCOUNTS_DESCRIPTION =
  "the members in display order (each active and of the set's workspace, none twice); `display_order` follows this order from 0";

export class ListSocialSetsQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id: string;
}

export class CreateSocialSetRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id: string;

  @ApiProperty({ minLength: 1, maxLength: SOCIAL_SET_NAME_MAX_LENGTH, description: NAME_DESCRIPTION })
  @IsString()
  @Length(1, SOCIAL_SET_NAME_MAX_LENGTH)
  name: string;

  @ApiPropertyOptional({ default: false, description: "true makes it the workspace's default set (the previous default stops being one)" })
  @Optional()
  @IsBoolean()
  is_default?: boolean;

  @ApiProperty({ type: [SocialSetAccountRef], maxItems: MAX_SOCIAL_SET_ACCOUNTS, description: ACCOUNTS_DESCRIPTION })
  @IsObjectList(SocialSetAccountRef, MAX_SOCIAL_SET_ACCOUNTS)
  accounts: SocialSetAccountRef[];
}

/** E13: the whole set is replaced, so every member is required. */
export class ReplaceSocialSetRequest {
  @ApiProperty({ minLength: 1, maxLength: SOCIAL_SET_NAME_MAX_LENGTH, description: NAME_DESCRIPTION })
  @IsString()
  @Length(1, SOCIAL_SET_NAME_MAX_LENGTH)
  name: string;

  @ApiProperty({ description: "true makes it the workspace's default set; false leaves the workspace without one if it was" })
  @IsBoolean()
  is_default: boolean;

  @ApiProperty({ type: [SocialSetAccountRef], maxItems: MAX_SOCIAL_SET_ACCOUNTS, description: ACCOUNTS_DESCRIPTION })
  @IsObjectList(SocialSetAccountRef, MAX_SOCIAL_SET_ACCOUNTS)
  accounts: SocialSetAccountRef[];
}

export class SocialSetAccount {
  @ApiProperty({ format: 'uuid' }) social_account_id: string;
  @ApiProperty({ enum: SOCIAL_PLATFORMS, description: "the account's network, as it is now" }) platform: string;
  @ApiProperty({ description: "the account's handle, as it is now" }) account_username: string;
  @ApiProperty({ description: '"" when the network gave none' }) account_avatar_url: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'position in the set, from 0' }) display_order: number;
  @ApiProperty({ description: '"" when none is set' }) default_output_profile: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: '{} when none are set' })
  default_settings: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, description: '{} when none are set' })
  default_segment_settings: Record<string, unknown>;
}

export class SocialSet {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: "whether it is the workspace's default set (at most one is)" }) is_default: boolean;
  @ApiProperty({ type: [SocialSetAccount], description: 'in display order' }) accounts: SocialSetAccount[];
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class SocialSetList {
  @ApiProperty({ type: [SocialSet], description: 'every set of the workspace, by name ignoring case' }) social_sets: SocialSet[];
}
