import { CreateSocialAccounts1764300000000 } from './1764300000000-create-social-accounts.js';
import { CreateSocialSets1764300002000 } from './1764300002000-create-social-sets.js';
import { CreateVoiceProfiles1764300003000 } from './1764300003000-create-voice-profiles.js';

/** Every migration of the publishing schema, oldest first. */
export const publishingMigrations = [CreateSocialAccounts1764300000000, CreateSocialSets1764300002000, CreateVoiceProfiles1764300003000];
