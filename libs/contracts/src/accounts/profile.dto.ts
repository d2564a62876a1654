import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
  IsUrl,
} from 'class-validator';
import { Optional } from '../common/optional.js';
import { SchemaName } from '../common/schema-name.js';
import { USERNAME_PATTERN } from './auth.dto.js';

export const COMPOSER_EXPERIENCES = ['specialized', 'unified'] as const;
/** Profile fields a user may choose to show on a public profile. */
export const PUBLIC_PROFILE_FIELDS = ['display_name', 'username', 'avatar_url'] as const;

export class UserProfile {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty() email_verified: boolean;
  @ApiProperty() display_name: string;
  @ApiProperty({ description: '"" when the user has not chosen one' }) username: string;
  @ApiProperty({ description: '"" when unset' }) avatar_url: string;
  @ApiProperty({ enum: COMPOSER_EXPERIENCES }) composer_experience: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty() has_password: boolean;
  @ApiProperty() password_usable: boolean;
  @ApiProperty() is_admin: boolean;
  @ApiProperty() is_managed: boolean;
  @ApiProperty({ description: '"" unless the account is managed by an organization' }) managed_organization_name: string;
  @ApiProperty() legal_acceptance_required: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) legal_accepted_at: string | null;
  @ApiProperty() privacy_version: string;
  @ApiProperty() terms_version: string;
  @ApiProperty() public_profile_enabled: boolean;
  @ApiProperty({ type: [String], enum: PUBLIC_PROFILE_FIELDS }) public_profile_visible_fields: string[];
}

export class UpdateProfileRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: 120 })
  @Optional()
  @IsString()
  @Length(1, 120)
  display_name?: string;

  @ApiPropertyOptional({ pattern: USERNAME_PATTERN.source })
  @Optional()
  @IsString()
  @Matches(USERNAME_PATTERN, { message: '$property must be 3 to 30 letters, digits, "_" or "-"' })
  username?: string;

  @ApiPropertyOptional({ description: 'an https URL, or "" to clear', maxLength: 2048 })
  @Optional()
  @IsString()
  @MaxLength(2048)
  @ValidateIf((o: UpdateProfileRequest) => o.avatar_url !== '')
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true }, { message: '$property must be an http(s) URL or ""' })
  avatar_url?: string;

  @ApiPropertyOptional({ enum: COMPOSER_EXPERIENCES })
  @Optional()
  @IsIn(COMPOSER_EXPERIENCES)
  composer_experience?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  public_profile_enabled?: boolean;

  @ApiPropertyOptional({ type: [String], enum: PUBLIC_PROFILE_FIELDS })
  @Optional()
  @IsArray()
  @ArrayMaxSize(PUBLIC_PROFILE_FIELDS.length)
  @ArrayUnique()
  @IsIn(PUBLIC_PROFILE_FIELDS, { each: true })
  public_profile_visible_fields?: string[];
}

export class AuthTokens {
  @ApiProperty({ description: 'JWT, valid for `expires_in` seconds' }) access_token: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type: 'Bearer';
  @ApiProperty({ description: 'seconds' }) expires_in: number;
  @ApiProperty({ description: 'single use; POST /auth/refresh rotates it' }) refresh_token: string;
  @ApiProperty({ type: UserProfile }) user: UserProfile;
}

export class Passkey {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at: string | null;
}

export const SIGN_IN_METHODS = ['password', 'passkey', 'totp'] as const;

@SchemaName('SecurityStatusOutputBody')
export class SecurityStatus {
  @ApiProperty({ type: [String], enum: SIGN_IN_METHODS }) methods: string[];
  @ApiProperty({ type: [Passkey] }) passkeys: Passkey[];
  @ApiProperty() totp_enabled: boolean;
  @ApiProperty({ type: UserProfile }) user: UserProfile;
}
