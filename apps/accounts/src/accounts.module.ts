import { Module } from '@nestjs/common';
import { Mailer, SERVICE_CONFIG } from '@social/platform';
import { ApiTokensHandler } from './api-tokens/api-tokens.handler.js';
import { ApiTokensService } from './api-tokens/api-tokens.service.js';
import { AccessTokenSigner } from './auth/access-tokens.js';
import { AuthHandler } from './auth/auth.handler.js';
import { AuthService } from './auth/auth.service.js';
import type { AccountsConfig } from './config.js';
import { EmailChangeHandler } from './email-change/email-change.handler.js';
import { EmailChangeService } from './email-change/email-change.service.js';
import { PasskeysHandler } from './passkeys/passkeys.handler.js';
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
    ApiTokensService,
    ProfileService,
    ReauthService,
    PasskeysService,
    EmailChangeService,
    { provide: Mailer, inject: [SERVICE_CONFIG], useFactory: (config: AccountsConfig) => new Mailer(config) },
    DirectoryService,
    {
      provide: AccessTokenSigner,
      inject: [SERVICE_CONFIG],
      useFactory: (config: AccountsConfig) =>
        AccessTokenSigner.fromPem(config.JWT_PRIVATE_KEY, config.ACCESS_TOKEN_TTL_SECONDS),
    },
  ],
  exports: [Mailer, ApiTokensService],
})
export class AccountsModule {}
