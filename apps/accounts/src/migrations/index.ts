import { CreateAccounts1763769600000 } from './1763769600000-create-accounts.js';

/** Every migration of the accounts schema, oldest first. */
export const accountsMigrations = [CreateAccounts1763769600000];
