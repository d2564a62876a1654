import { CreateSocialAccounts1764300000000 } from './1764300000000-create-social-accounts.js';

/** Every migration of the publishing schema, oldest first. */
export const publishingMigrations = [CreateSocialAccounts1764300000000];
