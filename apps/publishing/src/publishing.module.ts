import { Module } from '@nestjs/common';
import { AiClient } from './ai/ai-client.js';
import { ProviderRegistry } from './providers/provider-registry.js';
import { PublicationAnglesService } from './publication-builds/publication-angles.service.js';
import { PublicationBuildsHandler } from './publication-builds/publication-builds.handler.js';
import { SocialAccountsHandler } from './social-accounts/social-accounts.handler.js';
import { SocialAccountsService } from './social-accounts/social-accounts.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

@Module({
  controllers: [SocialAccountsHandler, PublicationBuildsHandler],
  providers: [ProviderRegistry, SocialAccountsService, OrganizationDeletedHandler, AiClient, PublicationAnglesService],
})
export class PublishingModule {}
