import { AddOutboxContext1799000000000 } from '@social/platform';
import { CreateWebhooks1765000000000 } from './1765000000000-create-webhooks.js';

/** Every migration of the webhooks schema, oldest first. */
export const webhooksMigrations = [CreateWebhooks1765000000000, AddOutboxContext1799000000000];
