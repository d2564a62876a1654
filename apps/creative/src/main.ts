import { CREATIVE_SERVICE, ORGANIZATION_DELETED_SUBJECT } from '@social/contracts';
import { AccessModule, runService } from '@social/platform';
import { creativeSettings } from './config.js';
import { CreativeModule } from './creative.module.js';
import { creativeMigrations } from './migrations/index.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

void runService({
  name: CREATIVE_SERVICE,
  settings: creativeSettings,
  entities: [],
  migrations: creativeMigrations,
  // Rendering reads and writes media's object storage, which the instance settings choose.
  instanceSettings: true,
  imports: [AccessModule, CreativeModule],
  eventConsumers: [{ durable: 'creative-organization-deleted', subjects: [ORGANIZATION_DELETED_SUBJECT], handler: OrganizationDeletedHandler }],
});
