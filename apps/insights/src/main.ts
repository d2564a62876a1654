import '@social/platform/tracing'; // first: OpenTelemetry patches http and pg as they load
import {
  ACCOUNT_DISCONNECTED_SUBJECT,
  INSIGHTS_SERVICE,
  ORGANIZATION_DELETED_SUBJECT,
  RENDITION_PUBLISHED_SUBJECT,
} from '@social/contracts';
import { AccessModule, runService } from '@social/platform';
import { insightsSettings } from './config.js';
import { InsightsModule } from './insights.module.js';
import { insightsMigrations } from './migrations/index.js';
import { RenditionPublishedHandler } from './renditions/rendition-published.handler.js';
import { AccountDisconnectedHandler } from './tenancy/account-disconnected.handler.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

void runService({
  name: INSIGHTS_SERVICE,
  settings: insightsSettings,
  // no entities: every table of this service is read and written in SQL through typed rows (src/**/*.row.ts)
  entities: [],
  migrations: insightsMigrations,
  imports: [AccessModule, InsightsModule],
  eventConsumers: [
    // Deleted organizations' insights are purged, even if we were down when it happened.
    { durable: 'insights-organization-deleted', subjects: [ORGANIZATION_DELETED_SUBJECT], handler: OrganizationDeletedHandler },
    // Published renditions are stored and their measurements scheduled (+0, +1 h, +24 h, +7 d).
    { durable: 'insights-rendition-published', subjects: [RENDITION_PUBLISHED_SUBJECT], handler: RenditionPublishedHandler },
    // A disconnected account's jobs stop and its insights go.
    { durable: 'insights-account-disconnected', subjects: [ACCOUNT_DISCONNECTED_SUBJECT], handler: AccountDisconnectedHandler },
  ],
});
