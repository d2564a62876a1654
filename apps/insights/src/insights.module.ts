import { Module } from '@nestjs/common';
import { AccountDirectory } from './accounts/account-directory.js';
import { AnalyticsHandler } from './analytics/analytics.handler.js';
import { AnalyticsService } from './analytics/analytics.service.js';
import { GrowthHandler } from './growth/growth.handler.js';
import { GrowthService } from './growth/growth.service.js';
import { RenditionPublishedHandler } from './renditions/rendition-published.handler.js';
import { DailyPlanner } from './sync/daily-planner.js';
import { JobRunner } from './sync/job-runner.js';
import { ProviderClient } from './sync/provider-client.js';
import { SyncWorker } from './sync/sync-worker.js';
import { AccountDisconnectedHandler } from './tenancy/account-disconnected.handler.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';
import { PendingWorkHandler } from './tenancy/pending-work.handler.js';

@Module({
  controllers: [GrowthHandler, AnalyticsHandler, PendingWorkHandler],
  providers: [
    ProviderClient,
    AccountDirectory,
    GrowthService,
    AnalyticsService,
    JobRunner,
    DailyPlanner,
    SyncWorker,
    RenditionPublishedHandler,
    AccountDisconnectedHandler,
    OrganizationDeletedHandler,
  ],
})
export class InsightsModule {}
