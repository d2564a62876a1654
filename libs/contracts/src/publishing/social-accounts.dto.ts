import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUrl, IsUUID, Length, Matches, MaxLength } from 'class-validator';
import { Optional } from '../common/optional.js';
import { PROVIDERS } from '../admin/prompt-catalogue.js';

/** The built-in simulated network (docs/decisions.md): accepts posts, reports deterministic metrics, never leaves the machine. */
export const SANDBOX_PROVIDER = 'sandbox';
/** Every network an account can be connected on: the real ones (through their provider apps) and the sandbox. */
export const SOCIAL_PLATFORMS = [SANDBOX_PROVIDER, ...PROVIDERS] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

/** `active` accounts can be published to; `reconnect_required` ones lost their grant (expired or revoked at the network). */
export const SOCIAL_ACCOUNT_STATUSES = ['active', 'reconnect_required'] as const;
export type SocialAccountStatus = (typeof SOCIAL_ACCOUNT_STATUSES)[number];

/**
 * A Telegram chat the Bot API can address: a group's or channel's (negative) numeric id, or a public channel's
 * `@username` (5–32 letters, digits and underscores, starting with a letter).
 */
export const TELEGRAM_CHAT_ID = /^(-\d{1,19}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;

export class ListSocialAccountsQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id: string;
}

export class ConnectSocialAccountRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: '$property must be a UUID' })
  workspace_id: string;

  @ApiProperty({ enum: SOCIAL_PLATFORMS })
  @IsIn(SOCIAL_PLATFORMS)
  provider: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 253,
    description:
      'sandbox: the simulated handle (at most 64 characters), defaulting to one derived from the new account id; ' +
      'bluesky (required there): the handle to sign in with (`alice.bsky.social`); other networks tell us the account (422). ' +
      'Letters, digits, ".", "_" and "-"',
  })
  @Optional()
  @IsString()
  @Length(1, 253)
  @Matches(/^[A-Za-z0-9._-]+$/, { message: '$property may hold only letters, digits, ".", "_" and "-"' })
  username?: string;

  @ApiPropertyOptional({
    maxLength: 2048,
    description:
      'mastodon (required there): the https URL of the server, whose provider app an administrator saved; ' +
      'bluesky (optional): the https URL of a self-hosted PDS, default `https://bsky.social`; other networks refuse it (422)',
  })
  @Optional()
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['https'], require_protocol: true }, { message: '$property must be an https URL' })
  instance_url?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 256,
    writeOnly: true,
    description:
      'bluesky only, and required there: an app password of the account (Settings → App passwords). Sealed at rest with the session, ' +
      'never answered or logged; a wrong or revoked one is 422 `provider_credentials_rejected`',
  })
  @Optional()
  @IsString()
  @Length(1, 256)
  app_password?: string;

  @ApiPropertyOptional({
    maxLength: 2048,
    writeOnly: true,
    description:
      'discord only, and required there: the incoming webhook of the channel to post in ' +
      '(`https://discord.com/api/webhooks/{id}/{token}`, Channel settings → Integrations → Webhooks). Checked by reading it; ' +
      'sealed at rest, never answered or logged; one Discord refuses is 422 `provider_credentials_rejected`',
  })
  @Optional()
  @IsString()
  @MaxLength(2048)
  webhook_url?: string;

  @ApiPropertyOptional({
    maxLength: 33,
    description:
      "telegram only, and required there: the channel or group to post in, as its numeric id (`-100…`) or a public channel's " +
      "`@username`. The instance's bot (the telegram provider app) must be an administrator allowed to post there (a member " +
      'allowed to send messages, in a group); checked with the Bot API, else 422 `provider_credentials_rejected`',
  })
  @Optional()
  @IsString()
  @Matches(TELEGRAM_CHAT_ID, { message: "$property must be a numeric chat id (-100…) or a channel's @username" })
  chat_id?: string;
}

/** `GET /social-accounts/callback/{provider}`: what the network appended to the redirect URI. */
export class CompleteSocialAccountConnectionQuery {
  @ApiProperty({ minLength: 1, maxLength: 4096, description: "the network's authorization code" })
  @IsString()
  @Length(1, 4096)
  code: string;

  @ApiProperty({ minLength: 1, maxLength: 512, description: 'the `state` connect answered' })
  @IsString()
  @Length(1, 512)
  state: string;
}

export class SocialAccount {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty({ enum: SOCIAL_PLATFORMS }) platform: string;
  @ApiProperty() username: string;
  @ApiProperty() display_name: string;
  @ApiProperty({ description: '"" when the network gave none' }) avatar_url: string;
  @ApiProperty({ enum: SOCIAL_ACCOUNT_STATUSES }) status: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({
    type: 'integer',
    description: 'sandbox accounts: posts the sandbox network accepted for it (a duplicate delivery shows); 0 for other networks',
  })
  posts_published: number;
}

export class SocialAccountList {
  @ApiProperty({ type: [SocialAccount] }) accounts: SocialAccount[];
}

/** Answer of connect for an OAuth network: send the user to `authorization_url`; the network sends them back with `code` and `state`. */
export class SocialAccountAuthorization {
  @ApiProperty() authorization_url: string;
  @ApiProperty({ description: 'single-use, bound to the caller and the workspace, valid 10 minutes' }) state: string;
}
