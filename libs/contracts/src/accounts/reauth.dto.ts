import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from './auth.dto.js';

export class ReauthRequest {
  @ApiProperty({ maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string;
}

export class ReauthGrant {
  @ApiProperty({ description: 'single use, bound to this user and session; send it to E2 or passkey registration' })
  reauth_grant: string;
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

/** How a `reauth_grant` member is declared wherever an operation needs one. */
export const REAUTH_GRANT_MAX_LENGTH = 200;
