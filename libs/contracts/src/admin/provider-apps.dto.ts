import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, IsUrl, Length, MaxLength, ValidateIf } from 'class-validator';
import { Optional } from '../common/optional.js';
import { PROVIDERS } from './prompt-catalogue.js';

/** How the platform talks to the provider: OAuth user grants, a bot account, or incoming webhooks. */
export const CONNECTION_MODES = ['oauth', 'bot', 'webhook'] as const;
export const PROVIDER_APP_SOURCES = ['database', 'environment'] as const;
/** The one provider whose apps are per instance: (provider, instance_url) is the upsert key. */
export const PROVIDERS_WITH_INSTANCES: readonly string[] = ['mastodon'];
const SECRET_MAX_LENGTH = 4096;

/** E3 body. Omitted members keep their stored value (new apps take the defaults); "" clears a secret. */
export class SaveProviderAppRequest {
  @ApiProperty({ enum: PROVIDERS })
  @IsIn(PROVIDERS)
  provider: string;

  @ApiProperty({ minLength: 1, maxLength: 512 })
  @IsString()
  @Length(1, 512)
  client_id: string;

  @ApiPropertyOptional({ maxLength: SECRET_MAX_LENGTH, description: 'write-only; "" clears it; omitted keeps the stored one' })
  @Optional()
  @IsString()
  @MaxLength(SECRET_MAX_LENGTH)
  client_secret?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 120, description: 'defaults to the provider name' })
  @Optional()
  @IsString()
  @Length(1, 120)
  name?: string;

  @ApiPropertyOptional({ maxLength: 2048, description: 'an http(s) URL, or "" for the platform default' })
  @Optional()
  @IsString()
  @MaxLength(2048)
  @ValidateIf((o: SaveProviderAppRequest) => o.redirect_uri !== '')
  @IsUrl(
    { protocols: ['https', 'http'], require_protocol: true, require_tld: false },
    { message: '$property must be an http(s) URL or ""' },
  )
  redirect_uri?: string;

  @ApiPropertyOptional({ maxLength: 2048, description: 'required for mastodon (the https URL of the server), refused for other providers' })
  @Optional()
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['https'], require_protocol: true }, { message: '$property must be an https URL' })
  instance_url?: string;

  @ApiPropertyOptional({ maxLength: SECRET_MAX_LENGTH, description: 'write-only; "" clears it' })
  @Optional()
  @IsString()
  @MaxLength(SECRET_MAX_LENGTH)
  bot_token?: string;

  @ApiPropertyOptional({ maxLength: SECRET_MAX_LENGTH, description: 'write-only; "" clears it' })
  @Optional()
  @IsString()
  @MaxLength(SECRET_MAX_LENGTH)
  webhook_secret?: string;

  @ApiPropertyOptional({ enum: CONNECTION_MODES, description: 'defaults to oauth' })
  @Optional()
  @IsIn(CONNECTION_MODES)
  connection_mode?: string;

  @ApiPropertyOptional({ description: 'defaults to true' })
  @Optional()
  @IsBoolean()
  is_active?: boolean;
}

/** Secrets are never returned: only whether each is configured. */
export class ProviderApp {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: PROVIDERS }) provider: string;
  @ApiProperty() name: string;
  @ApiProperty() client_id: string;
  @ApiProperty() secret_configured: boolean;
  @ApiProperty() bot_token_configured: boolean;
  @ApiProperty({ description: '"" until a bot account is linked' }) bot_username: string;
  @ApiProperty() webhook_secret_configured: boolean;
  @ApiProperty({ description: '"" for the platform default' }) redirect_uri: string;
  @ApiProperty({ description: '"" for providers without instances' }) instance_url: string;
  @ApiProperty({ enum: CONNECTION_MODES }) connection_mode: string;
  @ApiProperty() is_active: boolean;
  @ApiProperty({ enum: PROVIDER_APP_SOURCES }) source: string;
  @ApiProperty({ description: 'false for apps configured through the environment' }) editable: boolean;
  @ApiProperty({ description: 'false for apps configured through the environment' }) deletable: boolean;
  @ApiProperty({ description: 'a database app whose key an environment app also uses: the environment one is in effect' })
  shadowed_by_environment: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class SaveProviderAppResponse {
  @ApiProperty({ type: ProviderApp }) app: ProviderApp;
  @ApiProperty({ description: 'whether an app with this (provider, instance_url) existed before' }) existed: boolean;
  @ApiProperty({ description: 'always true: services read provider apps at start-up' }) requires_restart: boolean;
}
