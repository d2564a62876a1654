import { Module } from '@nestjs/common';
import { DesignsHandler } from './image-editor/designs.handler.js';
import { DesignsService } from './image-editor/designs.service.js';
import { DesignRenderer } from './rendering/design-renderer.js';
import { CreativeStorageModule } from './rendering/storage.module.js';
import { TemplatesHandler } from './templates/templates.handler.js';
import { TemplatesService } from './templates/templates.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

@Module({
  imports: [CreativeStorageModule],
  controllers: [DesignsHandler, TemplatesHandler],
  providers: [OrganizationDeletedHandler, DesignsService, TemplatesService, DesignRenderer],
})
export class CreativeModule {}
