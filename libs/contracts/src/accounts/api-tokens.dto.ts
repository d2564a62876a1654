import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID, Length, Matches } from 'class-validator';
import { Optional } from '../common/optional.js';
import { IsRfc3339DateTime } from '../common/time.js';

export class CreateApiTokenRequest {
  @ApiProperty({ minLength: 1, maxLength: 120 })
  @IsString()
  @Length(1, 120)
  @Matches(/\S/, { message: '$property must not be blank' })
  name: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'in the future; omit for a token that never expires' })
  @Optional()
  @IsString()
  @IsRfc3339DateTime()
  expires_at?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'binds the token to one workspace (only its operations)' })
  @Optional()
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id?: string;
}

export class ApiToken {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: '"" when the token is not bound to a workspace' }) workspace_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null: never expires' })
  expires_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null until first used' })
  last_used_at: string | null;
}

export class ApiTokenCreated {
  @ApiProperty({ description: 'the secret (spk_…); shown only in this answer' }) token: string;
  @ApiProperty({ type: ApiToken }) item: ApiToken;
}

export class ApiTokenList {
  @ApiProperty({ type: [ApiToken] }) api_tokens: ApiToken[];
}
