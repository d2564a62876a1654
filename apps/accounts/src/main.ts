import '@social/platform/tracing'; // first: OpenTelemetry patches http and pg as they load
import { ACCOUNTS_SERVICE } from '@social/contracts';
import { ApiTokenEntity } from './api-tokens/api-token.entity.js';
import { runService } from '@social/platform';
import { AccountsModule } from './accounts.module.js';
import { TenancyModule } from './tenancy/tenancy.module.js';
import { accountsSettings } from './config.js';
import { accountsMigrations } from './migrations/index.js';
import { RefreshTokenEntity, SessionEntity } from './auth/session.entity.js';
import { UserEntity } from './users/user.entity.js';
import { ReauthGrantEntity } from './reauth/reauth-grant.entity.js';
import { PasskeyChallengeEntity, PasskeyEntity } from './passkeys/passkey.entity.js';
import { EmailChangeEntity } from './email-change/email-change.entity.js';

void runService({
  name: ACCOUNTS_SERVICE,
  settings: accountsSettings,
  entities: [
    UserEntity,
    SessionEntity,
    RefreshTokenEntity,
    ApiTokenEntity,
    ReauthGrantEntity,
    PasskeyEntity,
    PasskeyChallengeEntity,
    EmailChangeEntity,
  ],
  migrations: accountsMigrations,
  imports: [AccountsModule, TenancyModule],
  // Organization deletion's purge event leaves through the outbox.
  outbox: true,
  // registration_enabled (live) and the sign-in and registration rate limits.
  instanceSettings: true,
});
