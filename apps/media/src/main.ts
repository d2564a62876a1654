import '@social/platform/tracing'; // first: OpenTelemetry patches http and pg as they load
import { MEDIA_SERVICE, ORGANIZATION_DELETED_SUBJECT, PROJECT_ASSET_DELETED_SUBJECT } from '@social/contracts';
import { AccessModule, runService } from '@social/platform';
import { mediaSettings } from './config.js';
import { MediaModule } from './media.module.js';
import { mediaMigrations } from './migrations/index.js';
import { ProjectAssetDeletedHandler } from './project-assets/project-asset-deleted.handler.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

void runService({
  name: MEDIA_SERVICE,
  settings: mediaSettings,
  // no entities: every table of this service is read and written in SQL through typed rows (src/**/*.row.ts)
  entities: [],
  migrations: mediaMigrations,
  // Storage driver, S3 settings, upload limits and allowed types are instance settings.
  instanceSettings: true,
  imports: [AccessModule, MediaModule],
  // Deleted organizations' media (rows and objects) is purged, even if we were down when it happened.
  eventConsumers: [
    { durable: 'media-organization-deleted', subjects: [ORGANIZATION_DELETED_SUBJECT], handler: OrganizationDeletedHandler },
    // A deleted (or purged) video-project asset takes its uploads with it.
    { durable: 'media-project-asset-deleted', subjects: [PROJECT_ASSET_DELETED_SUBJECT], handler: ProjectAssetDeletedHandler },
  ],
  // Outcomes of project asset uploads reach creative (durable.media.project-asset.*) in the transaction of the change.
  outbox: true,
});
