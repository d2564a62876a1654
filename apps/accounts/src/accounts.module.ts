import { Module } from '@nestjs/common';
import { InstanceSettings, Mailer, MailSettings, SERVICE_CONFIG, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { ApiTokensHandler } from './api-tokens/api-tokens.handler.js';
import { ApiTokensService } from './api-tokens/api-tokens.service.js';
import { AccessTokenSigner } from './auth/access-tokens.js';
import { AuthHandler } from './auth/auth.handler.js';
import { AuthService } from './auth/auth.service.js';
import { PasswordService } from './auth/password.service.js';
import type { AccountsConfig } from './config.js';
import { EmailChangeHandler } from './email-change/email-change.handler.js';
import { EmailChangeService } from './email-change/email-change.service.js';
import { PasskeysHandler } from './passkeys/passkeys.handler.js';
import { PasskeySignInService } from './passkeys/passkey-sign-in.service.js';
import { PasskeysService } from './passkeys/passkeys.service.js';
import { DirectoryHandler } from './directory/directory.handler.js';
import { DirectoryService } from './directory/directory.service.js';
import { ProfileHandler } from './profile/profile.handler.js';
import { ProfileService } from './profile/profile.service.js';
import { ReauthHandler } from './reauth/reauth.handler.js';
import { ReauthService } from './reauth/reauth.service.js';

@Module({
  controllers: [AuthHandler, ProfileHandler, ApiTokensHandler, ReauthHandler, PasskeysHandler, EmailChangeHandler, DirectoryHandler],
  providers: [
    AuthService,
    PasswordService,
    ApiTokensService,
    ProfileService,
    ReauthService,
    PasskeysService,
    PasskeySignInService,
    EmailChangeService,
    {
      provide: MailSettings,
      inject: [InstanceSettings, SERVICE_LOGGER],
      useFactory: (settings: InstanceSettings, logger: Logger) => MailSettings.from(settings, logger),
    },
    {
      provide: Mailer,
      inject: [MailSettings],
      useFactory: (mail: MailSettings) => new Mailer({ SMTP_URL: mail.smtpUrl, SMTP_FROM: mail.smtpFrom }),
    },
    DirectoryService,
    {
      provide: AccessTokenSigner,
      inject: [SERVICE_CONFIG],
      useFactory: (config: AccountsConfig) => AccessTokenSigner.fromPem(config.JWT_PRIVATE_KEY, config.ACCESS_TOKEN_TTL_SECONDS),
    },
  ],
  exports: [Mailer, MailSettings, ApiTokensService],
})
export class AccountsModule {}
