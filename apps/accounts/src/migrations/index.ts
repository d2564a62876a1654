import { CreateAccounts1763769600000 } from './1763769600000-create-accounts.js';
import { CreateApiTokens1763769600002 } from './1763769600002-create-api-tokens.js';
import { UserDirectory1763769600100 } from './1763769600100-user-directory.js';

/** Every migration of the accounts schema, oldest first. */
export const accountsMigrations = [CreateAccounts1763769600000, CreateApiTokens1763769600002, UserDirectory1763769600100];
