import { ACCOUNTS_SERVICE } from '@social/contracts';
import { ApiTokenEntity } from './api-tokens/api-token.entity.js';
import { runService } from '@social/platform';
import { AccountsModule } from './accounts.module.js';
import { accountsSettings } from './config.js';
import { accountsMigrations } from './migrations/index.js';
import { RefreshTokenEntity, SessionEntity } from './auth/session.entity.js';
import { UserEntity } from './users/user.entity.js';

void runService({
  name: ACCOUNTS_SERVICE,
  settings: accountsSettings,
  entities: [UserEntity, SessionEntity, RefreshTokenEntity, ApiTokenEntity],
  migrations: accountsMigrations,
  imports: [AccountsModule],
  // registration_enabled (live) and the sign-in and registration rate limits.
  instanceSettings: true,
});
