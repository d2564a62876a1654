import { Module } from '@nestjs/common';
import { TrashSweeper } from './housekeeping/trash-sweeper.js';
import { DesignsHandler } from './image-editor/designs.handler.js';
import { DesignsService } from './image-editor/designs.service.js';
import { AssetUploadCompletedHandler, AssetUploadFailedHandler } from './project-assets/asset-upload-events.handler.js';
import { ProjectAssetsHandler } from './project-assets/project-assets.handler.js';
import { ProjectAssetsService } from './project-assets/project-assets.service.js';
import { DesignRenderer } from './rendering/design-renderer.js';
import { CreativeStorageModule } from './rendering/storage.module.js';
import { ReportingHandler } from './reporting/reporting.handler.js';
import { ReportingService } from './reporting/reporting.service.js';
import { TemplatesHandler } from './templates/templates.handler.js';
import { TemplatesService } from './templates/templates.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';
import { ThemesHandler } from './themes/themes.handler.js';
import { ThemesService } from './themes/themes.service.js';
import { VideoProjectsHandler } from './video-projects/video-projects.handler.js';
import { VideoProjectsService } from './video-projects/video-projects.service.js';

@Module({
  imports: [CreativeStorageModule],
  controllers: [VideoProjectsHandler, ProjectAssetsHandler, ThemesHandler, ReportingHandler, DesignsHandler, TemplatesHandler],
  providers: [
    OrganizationDeletedHandler,
    VideoProjectsService,
    ProjectAssetsService,
    ThemesService,
    ReportingService,
    TrashSweeper,
    AssetUploadCompletedHandler,
    AssetUploadFailedHandler,
    DesignsService,
    TemplatesService,
    DesignRenderer,
  ],
})
export class CreativeModule {}
