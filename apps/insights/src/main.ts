import { INSIGHTS_SERVICE, ORGANIZATION_DELETED_SUBJECT } from '@social/contracts';
import { AccessModule, runService } from '@social/platform';
import { insightsSettings } from './config.js';
import { InsightsModule } from './insights.module.js';
import { insightsMigrations } from './migrations/index.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

void runService({
  name: INSIGHTS_SERVICE,
  settings: insightsSettings,
  entities: [],
  migrations: insightsMigrations,
  imports: [AccessModule, InsightsModule],
  eventConsumers: [{ durable: 'insights-organization-deleted', subjects: [ORGANIZATION_DELETED_SUBJECT], handler: OrganizationDeletedHandler }],
});
