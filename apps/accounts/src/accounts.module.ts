import { Module } from '@nestjs/common';
import { SERVICE_CONFIG } from '@social/platform';
import { ApiTokensHandler } from './api-tokens/api-tokens.handler.js';
import { ApiTokensService } from './api-tokens/api-tokens.service.js';
import { AccessTokenSigner } from './auth/access-tokens.js';
import { AuthHandler } from './auth/auth.handler.js';
import { AuthService } from './auth/auth.service.js';
import type { AccountsConfig } from './config.js';
import { DirectoryHandler } from './directory/directory.handler.js';
import { DirectoryService } from './directory/directory.service.js';
import { ProfileHandler } from './profile/profile.handler.js';
import { ProfileService } from './profile/profile.service.js';

@Module({
  controllers: [AuthHandler, ProfileHandler, ApiTokensHandler, DirectoryHandler],
  providers: [
    AuthService,
    ApiTokensService,
    ProfileService,
    DirectoryService,
    {
      provide: AccessTokenSigner,
      inject: [SERVICE_CONFIG],
      useFactory: (config: AccountsConfig) =>
        AccessTokenSigner.fromPem(config.JWT_PRIVATE_KEY, config.ACCESS_TOKEN_TTL_SECONDS),
    },
  ],
})
export class AccountsModule {}
