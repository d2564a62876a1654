import { Module } from '@nestjs/common';
import { ProviderRegistry } from './providers/provider-registry.js';
import { SocialAccountsHandler } from './social-accounts/social-accounts.handler.js';
import { SocialAccountsService } from './social-accounts/social-accounts.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

@Module({
  controllers: [SocialAccountsHandler],
  providers: [ProviderRegistry, SocialAccountsService, OrganizationDeletedHandler],
})
export class PublishingModule {}
