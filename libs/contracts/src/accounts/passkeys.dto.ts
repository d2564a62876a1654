import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';
import { REAUTH_GRANT_MAX_LENGTH } from './reauth.dto.js';

export class BeginPasskeyRequest {
  @ApiProperty({ maxLength: REAUTH_GRANT_MAX_LENGTH, description: 'from POST /auth/reauth; consumed here' })
  @IsString()
  @MaxLength(REAUTH_GRANT_MAX_LENGTH)
  reauth_grant: string;
}

export class PasskeyRegistrationOptions {
  @ApiProperty({ format: 'uuid', description: 'send back to /auth/security/passkeys/finish within 10 minutes' })
  challenge_id: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'PublicKeyCredentialCreationOptionsJSON, for navigator.credentials.create()',
  })
  options: Record<string, unknown>;
}

export class FinishPasskeyRequest {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MaxLength(200)
  challenge_id: string;

  @ApiProperty({ description: 'RegistrationResponseJSON from the browser (any JSON value; verified by the server)' })
  @IsDefined()
  credential: unknown;

  @ApiProperty({ maxLength: 120, description: 'blank becomes "Passkey"' })
  @IsString()
  @MaxLength(120)
  name: string;
}

export class PasskeySignInOptions {
  @ApiProperty({ format: 'uuid', description: 'send back to /auth/passkeys/sign-in/finish within 10 minutes' })
  challenge_id: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'PublicKeyCredentialRequestOptionsJSON, for navigator.credentials.get() (any of your passkeys: no account is named)',
  })
  options: Record<string, unknown>;
}

export class FinishPasskeySignInRequest {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MaxLength(200)
  challenge_id: string;

  @ApiProperty({ description: 'AuthenticationResponseJSON from the browser (any JSON value; verified by the server)' })
  @IsDefined()
  credential: unknown;
}
