import { CreateAccounts1763769600000 } from './1763769600000-create-accounts.js';
import { CreateApiTokens1763769600002 } from './1763769600002-create-api-tokens.js';
import { CreateAccountSecurity1763769600100 } from './1763769600100-create-account-security.js';
import { CreateTenancy1763769600200 } from './1763769600200-create-tenancy.js';
import { CreateOutbox1763769600201 } from './1763769600201-create-outbox.js';
import { UserDirectory1763769600300 } from './1763769600300-user-directory.js';
import { PasskeySignIn1763769600400 } from './1763769600400-passkey-sign-in.js';
import { AddOutboxContext1799000000000 } from '@social/platform';

/** Every migration of the accounts schema, oldest first. */
export const accountsMigrations = [
  CreateAccounts1763769600000,
  CreateApiTokens1763769600002,
  CreateAccountSecurity1763769600100,
  CreateTenancy1763769600200,
  CreateOutbox1763769600201,
  UserDirectory1763769600300,
  PasskeySignIn1763769600400,
  AddOutboxContext1799000000000,
];
