import '@social/platform/tracing'; // first: OpenTelemetry patches http and pg as they load
import {
  CREATIVE_SERVICE,
  ORGANIZATION_DELETED_SUBJECT,
  PROJECT_ASSET_COMPLETED_SUBJECT,
  PROJECT_ASSET_FAILED_SUBJECT,
} from '@social/contracts';
import { AccessModule, runService } from '@social/platform';
import { creativeSettings } from './config.js';
import { CreativeModule } from './creative.module.js';
import { creativeMigrations } from './migrations/index.js';
import { AssetUploadCompletedHandler, AssetUploadFailedHandler } from './project-assets/asset-upload-events.handler.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

void runService({
  name: CREATIVE_SERVICE,
  settings: creativeSettings,
  // no entities: every table of this service is read and written in SQL through typed rows (src/**/*.row.ts)
  entities: [],
  migrations: creativeMigrations,
  // Rendering reads and writes media's object storage, which the instance settings choose.
  instanceSettings: true,
  imports: [AccessModule, CreativeModule],
  // Deleted project assets reach media (it drops their bytes) through the outbox.
  outbox: true,
  eventConsumers: [
    { durable: 'creative-organization-deleted', subjects: [ORGANIZATION_DELETED_SUBJECT], handler: OrganizationDeletedHandler },
    // One subject per consumer (nats-server 2.9): media's outcomes of project asset uploads.
    { durable: 'creative-project-asset-completed', subjects: [PROJECT_ASSET_COMPLETED_SUBJECT], handler: AssetUploadCompletedHandler },
    { durable: 'creative-project-asset-failed', subjects: [PROJECT_ASSET_FAILED_SUBJECT], handler: AssetUploadFailedHandler },
  ],
});
