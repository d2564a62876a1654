import { Module } from '@nestjs/common';
import { TrashSweeper } from './housekeeping/trash-sweeper.js';
import { AssetUploadCompletedHandler, AssetUploadFailedHandler } from './project-assets/asset-upload-events.handler.js';
import { ProjectAssetsHandler } from './project-assets/project-assets.handler.js';
import { ProjectAssetsService } from './project-assets/project-assets.service.js';
import { ReportingHandler } from './reporting/reporting.handler.js';
import { ReportingService } from './reporting/reporting.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';
import { ThemesHandler } from './themes/themes.handler.js';
import { ThemesService } from './themes/themes.service.js';
import { VideoProjectsHandler } from './video-projects/video-projects.handler.js';
import { VideoProjectsService } from './video-projects/video-projects.service.js';

@Module({
  controllers: [VideoProjectsHandler, ProjectAssetsHandler, ThemesHandler, ReportingHandler],
  providers: [
    OrganizationDeletedHandler,
    VideoProjectsService,
    ProjectAssetsService,
    ThemesService,
    ReportingService,
    TrashSweeper,
    AssetUploadCompletedHandler,
    AssetUploadFailedHandler,
  ],
})
export class CreativeModule {}
