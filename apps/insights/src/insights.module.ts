import { Module } from '@nestjs/common';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

@Module({
  controllers: [],
  providers: [OrganizationDeletedHandler],
})
export class InsightsModule {}
