import '@social/platform/tracing'; // first: OpenTelemetry patches http and pg as they load
import { MEDIA_ITEM_ANALYSED_SUBJECT, ORGANIZATION_DELETED_SUBJECT, WEBHOOKS_SERVICE } from '@social/contracts';
import { AccessModule, runService } from '@social/platform';
import { webhooksSettings } from './config.js';
import { EventIntake } from './events/event-intake.js';
import { webhooksMigrations } from './migrations/index.js';
import { webhooksSealedColumns } from './subscriptions/webhook-secrets.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';
import { WebhooksModule } from './webhooks.module.js';

/**
 * Events one replica turns into deliveries at once (one publication's stay in order: see EventIntake). Each mostly
 * waits for the owner's read of the resource: 64 keep up with a burst of 1,000 renditions (docs/performance.md).
 */
const INTAKE_CONCURRENCY = 64;

void runService({
  name: WEBHOOKS_SERVICE,
  settings: webhooksSettings,
  // Every table is read and written in SQL through typed rows (src/**/*.row.ts).
  entities: [],
  migrations: webhooksMigrations,
  imports: [AccessModule, WebhooksModule],
  // Re-sealed by `main.js reseal` after a SECRETS_KEY rotation.
  sealedColumns: webhooksSealedColumns,
  eventConsumers: [
    { durable: 'webhooks-organization-deleted', subjects: [ORGANIZATION_DELETED_SUBJECT], handler: OrganizationDeletedHandler },
    // Every publishing event through one consumer (one filter: nats-server 2.9), so one publication's come in stream order.
    { durable: 'webhooks-publishing-events', subjects: ['durable.publishing.>'], handler: EventIntake, concurrency: INTAKE_CONCURRENCY },
    { durable: 'webhooks-media-ready', subjects: [MEDIA_ITEM_ANALYSED_SUBJECT], handler: EventIntake, concurrency: INTAKE_CONCURRENCY },
  ],
  // durable.webhooks.webhook.deactivated reaches notifications in the transaction that deactivates.
  outbox: true,
});
