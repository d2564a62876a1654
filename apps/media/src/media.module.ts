import { Module } from '@nestjs/common';
import { AnalysisWorker } from './analysis/analysis-worker.js';
import { OrphanUploadSweeper } from './housekeeping/orphan-upload-sweeper.js';
import { SessionSweeper } from './housekeeping/session-sweeper.js';
import { LibraryHandler } from './library/library.handler.js';
import { LibraryService } from './library/library.service.js';
import { MediaSharingHandler } from './public-urls/media-sharing.handler.js';
import { MediaSharingService } from './public-urls/media-sharing.service.js';
import { PublicUrls } from './public-urls/public-urls.js';
import { ProjectAssetDeletedHandler } from './project-assets/project-asset-deleted.handler.js';
import { ReportingHandler } from './reporting/reporting.handler.js';
import { ReportingService } from './reporting/reporting.service.js';
import { StorageModule } from './storage/storage.module.js';
import { TagsHandler } from './tags/tags.handler.js';
import { TagsService } from './tags/tags.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';
import { UploadSessionsHandler } from './upload-sessions/upload-sessions.handler.js';
import { UploadSessionsService } from './upload-sessions/upload-sessions.service.js';

@Module({
  imports: [StorageModule],
  controllers: [UploadSessionsHandler, LibraryHandler, TagsHandler, ReportingHandler, MediaSharingHandler],
  providers: [
    PublicUrls,
    MediaSharingService,
    AnalysisWorker,
    UploadSessionsService,
    LibraryService,
    TagsService,
    ReportingService,
    SessionSweeper,
    OrphanUploadSweeper,
    OrganizationDeletedHandler,
    ProjectAssetDeletedHandler,
  ],
})
export class MediaModule {}
