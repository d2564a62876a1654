import { CreateSocialAccounts1764300000000 } from './1764300000000-create-social-accounts.js';
import { CreateRateLimitCounters1764300000900 } from './1764300000900-create-rate-limit-counters.js';

/** Every migration of the publishing schema, oldest first. */
export const publishingMigrations = [
  CreateSocialAccounts1764300000000,
  CreateRateLimitCounters1764300000900,
];
