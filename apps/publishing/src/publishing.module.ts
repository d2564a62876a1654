import { Module } from '@nestjs/common';
import { ProviderRegistry } from './providers/provider-registry.js';
import { SocialAccountsHandler } from './social-accounts/social-accounts.handler.js';
import { SocialAccountsService } from './social-accounts/social-accounts.service.js';
import { SocialSetsHandler } from './social-sets/social-sets.handler.js';
import { SocialSetsService } from './social-sets/social-sets.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

@Module({
  controllers: [SocialAccountsHandler, SocialSetsHandler],
  providers: [ProviderRegistry, SocialAccountsService, OrganizationDeletedHandler, SocialSetsService],
})
export class PublishingModule {}
