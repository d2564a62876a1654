import { Module } from '@nestjs/common';
import { PublicationsHandler } from './publications/publications.handler.js';
import { PublicationsService } from './publications/publications.service.js';
import { ProviderRegistry } from './providers/provider-registry.js';
import { SocialAccountsHandler } from './social-accounts/social-accounts.handler.js';
import { SocialAccountsService } from './social-accounts/social-accounts.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

@Module({
  controllers: [
    SocialAccountsHandler,
    PublicationsHandler,
  ],
  providers: [
    ProviderRegistry,
    SocialAccountsService,
    OrganizationDeletedHandler,
    PublicationsService,
  ],
})
export class PublishingModule {}
