import { Module } from '@nestjs/common';
import { ProviderRegistry } from './providers/provider-registry.js';
import { SocialAccountsHandler } from './social-accounts/social-accounts.handler.js';
import { SocialAccountsService } from './social-accounts/social-accounts.service.js';
import { SocialSetsHandler } from './social-sets/social-sets.handler.js';
import { SocialSetsService } from './social-sets/social-sets.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';
import { VoiceProfilesHandler } from './voice-profiles/voice-profiles.handler.js';
import { VoiceProfilesService } from './voice-profiles/voice-profiles.service.js';

@Module({
  controllers: [SocialAccountsHandler, SocialSetsHandler, VoiceProfilesHandler],
  providers: [ProviderRegistry, SocialAccountsService, OrganizationDeletedHandler, SocialSetsService, VoiceProfilesService],
})
export class PublishingModule {}
