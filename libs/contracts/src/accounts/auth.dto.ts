import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional } from '../common/optional.js';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,30}$/;

export class RegisterRequest {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail({}, { message: '$property must be an email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  password: string;

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
}

export class LoginRequest {
  @ApiProperty({ maxLength: 254 })
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  email: string;

  @ApiProperty({ maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string;
}

export class RefreshRequest {
  @ApiProperty({ maxLength: 512 })
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  refresh_token: string;
}
