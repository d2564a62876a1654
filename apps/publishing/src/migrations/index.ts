import { CreateSocialAccounts1764300000000 } from './1764300000000-create-social-accounts.js';
import { CreateRateLimitCounters1764300000900 } from './1764300000900-create-rate-limit-counters.js';
import { CreateSocialSets1764300002000 } from './1764300002000-create-social-sets.js';
import { CreateVoiceProfiles1764300003000 } from './1764300003000-create-voice-profiles.js';
import { CreateOAuthStates1764300001000 } from './1764300001000-create-oauth-states.js';
import { CreatePublications1764300004000 } from './1764300004000-create-publications.js';
import { IndexPublicationsByCreator1764300005000 } from './1764300005000-index-publications-by-creator.js';
import { CreateOutbox1764300006000 } from './1764300006000-create-outbox.js';
import { CreateDelivery1764300007000 } from './1764300007000-create-delivery.js';
import { AddGrantRenewalClaim1764300008000 } from './1764300008000-add-grant-renewal-claim.js';
import { DropDeliveryOutcomeCopies1764300009000 } from './1764300009000-drop-delivery-outcome-copies.js';
import { AddRenditionPublishedAt1764300010000 } from './1764300010000-add-rendition-published-at.js';
import { IndexSocialAccountsByWorkspace1764300011000 } from './1764300011000-index-social-accounts-by-workspace.js';
import { CreateMediaFacts1764300012200 } from './1764300012200-create-media-facts.js';
import { AddDeliveryMedia1764300031000 } from './1764300031000-add-delivery-media.js';
import { IndexPublicationsByTime1764300032000 } from './1764300032000-index-publications-by-time.js';
import { AddOutboxContext1799000000000 } from '@social/platform';

/** Every migration of the publishing schema, oldest first. */
export const publishingMigrations = [
  CreateSocialAccounts1764300000000,
  CreateRateLimitCounters1764300000900,
  CreateOAuthStates1764300001000,
  CreateSocialSets1764300002000,
  CreateVoiceProfiles1764300003000,
  CreatePublications1764300004000,
  IndexPublicationsByCreator1764300005000,
  CreateOutbox1764300006000,
  CreateDelivery1764300007000,
  AddGrantRenewalClaim1764300008000,
  DropDeliveryOutcomeCopies1764300009000,
  AddRenditionPublishedAt1764300010000,
  IndexSocialAccountsByWorkspace1764300011000,
  CreateMediaFacts1764300012200,
  AddDeliveryMedia1764300031000,
  IndexPublicationsByTime1764300032000,
  AddOutboxContext1799000000000,
];
