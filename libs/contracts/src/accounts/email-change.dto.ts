import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { REAUTH_GRANT_MAX_LENGTH } from './reauth.dto.js';

export class RequestEmailChangeRequest {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail({}, { message: '$property must be an email address' })
  @MaxLength(254)
  new_email: string;

  @ApiProperty({ maxLength: REAUTH_GRANT_MAX_LENGTH, description: 'from POST /auth/reauth; consumed when the change is accepted' })
  @IsString()
  @MaxLength(REAUTH_GRANT_MAX_LENGTH)
  reauth_grant: string;
}

export class ConfirmEmailChangeRequest {
  @ApiProperty({ pattern: '^[0-9]{6}$', description: 'the 6-digit code mailed to the new address' })
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: '$property must be 6 digits' })
  code: string;
}

export class EmailChangeSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'email' }) new_email: string;
  @ApiProperty({ format: 'date-time' }) sent_at: string;
  @ApiProperty({ format: 'date-time', description: 'the code stops working at this time' }) expires_at: string;
}

export class PendingEmailChange {
  @ApiProperty({ type: EmailChangeSummary, nullable: true, description: 'the change awaiting its code, or null' })
  pending: EmailChangeSummary | null;
}
