import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth.dto.js';

/** `POST /auth/password` (docs/decisions.md, account safety). */
export class ChangePasswordRequest {
  @ApiProperty({
    maxLength: PASSWORD_MAX_LENGTH,
    description: 'a wrong one is 422 at body.current_password (invalid_password), counted like a failed sign-in',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  current_password: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  new_password: string;
}
