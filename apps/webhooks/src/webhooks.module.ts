import { Module, type Provider } from '@nestjs/common';
import { SecretBox, SERVICE_CONFIG } from '@social/platform';
import type { WebhooksConfig } from './config.js';
import { DeliveriesService } from './deliveries/deliveries.service.js';
import { DeliveryDispatcher } from './dispatch/dispatcher.js';
import { EventIntake } from './events/event-intake.js';
import { DestinationCheck } from './subscriptions/destination-check.js';
import { WebhookSecrets } from './subscriptions/webhook-secrets.js';
import { WebhooksHandler } from './subscriptions/webhooks.handler.js';
import { WebhooksService } from './subscriptions/webhooks.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

/** Webhook secrets are sealed with SECRETS_KEY's keyring (docs/security.md "Safe storage"). */
const secretBoxProvider: Provider = {
  provide: SecretBox,
  inject: [SERVICE_CONFIG],
  useFactory: (config: WebhooksConfig) => SecretBox.fromBase64Key(config.SECRETS_KEY),
};

@Module({
  controllers: [WebhooksHandler],
  providers: [
    secretBoxProvider,
    WebhookSecrets,
    DestinationCheck,
    WebhooksService,
    DeliveriesService,
    DeliveryDispatcher,
    EventIntake,
    OrganizationDeletedHandler,
  ],
})
export class WebhooksModule {}
