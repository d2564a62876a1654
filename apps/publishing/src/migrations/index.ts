import { CreateSocialAccounts1764300000000 } from './1764300000000-create-social-accounts.js';
import { CreatePublications1764300004000 } from './1764300004000-create-publications.js';

/** Every migration of the publishing schema, oldest first. */
export const publishingMigrations = [
  CreateSocialAccounts1764300000000,
  CreatePublications1764300004000,
];
