import { Module } from '@nestjs/common';
import { AiClient } from './ai/ai-client.js';
import { DeliveryOperations } from './delivery/delivery-operations.service.js';
import { DeliveryMedia } from './delivery/delivery-media.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { DeliveryHandler } from './delivery/delivery.handler.js';
import { ProviderInsightsHandler } from './provider-insights/provider-insights.handler.js';
import { ProviderInsightsService } from './provider-insights/provider-insights.service.js';
import { ProviderApps } from './providers/provider-apps.client.js';
import { ProviderRegistry } from './providers/provider-registry.js';
import { SandboxPostsHandler } from './providers/sandbox/sandbox-posts.handler.js';
import { SandboxPostsService } from './providers/sandbox/sandbox-posts.service.js';
import { PublicationAnglesService } from './publication-builds/publication-angles.service.js';
import { PublicationBuildsHandler } from './publication-builds/publication-builds.handler.js';
import { MediaFactsStore } from './media/media-facts.store.js';
import { MediaLibraryClient } from './media/media-library.client.js';
import { PublishingMediaStorageModule } from './media/media-storage.module.js';
import { MediaUsageHandler } from './media/media-usage.handler.js';
import { MediaUsageService } from './media/media-usage.service.js';
import { MediaAnalysedHandler } from './media/media-analysed.handler.js';
import { PublicationPreviews } from './publications/publication-previews.service.js';
import { RenditionOverrides } from './publications/rendition-overrides.service.js';
import { PublicationsHandler } from './publications/publications.handler.js';
import { PublicationsService } from './publications/publications.service.js';
import { CredentialConnections } from './social-accounts/credential-connections.service.js';
import { OAuthConnections } from './social-accounts/oauth-connections.service.js';
import { ProviderAccounts } from './social-accounts/provider-accounts.js';
import { secretBoxProvider } from './social-accounts/secret-box.provider.js';
import { ReportingHandler } from './reporting/reporting.handler.js';
import { ReportingService } from './reporting/reporting.service.js';
import { ResourceReadsHandler } from './resources/resource-reads.handler.js';
import { ResourceReads } from './resources/resource-reads.service.js';
import { SocialAccountsHandler } from './social-accounts/social-accounts.handler.js';
import { SocialAccountsService } from './social-accounts/social-accounts.service.js';
import { SocialSetsHandler } from './social-sets/social-sets.handler.js';
import { SocialSetsService } from './social-sets/social-sets.service.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';
import { VoiceProfilesHandler } from './voice-profiles/voice-profiles.handler.js';
import { VoiceProfilesService } from './voice-profiles/voice-profiles.service.js';

@Module({
  imports: [PublishingMediaStorageModule],
  controllers: [
    MediaUsageHandler,
    SocialAccountsHandler,
    SocialSetsHandler,
    VoiceProfilesHandler,
    PublicationBuildsHandler,
    PublicationsHandler,
    DeliveryHandler,
    ReportingHandler,
    ProviderInsightsHandler,
    SandboxPostsHandler,
    ResourceReadsHandler,
  ],
  providers: [
    ProviderRegistry,
    SocialAccountsService,
    OrganizationDeletedHandler,
    SocialSetsService,
    VoiceProfilesService,
    AiClient,
    PublicationAnglesService,
    OAuthConnections,
    CredentialConnections,
    ProviderAccounts,
    ProviderApps,
    secretBoxProvider,
    PublicationsService,
    DeliveryOperations,
    DeliveryWorker,
    MediaLibraryClient,
    DeliveryMedia,
    SandboxPostsService,
    ReportingService,
    ProviderInsightsService,
    MediaFactsStore,
    MediaUsageService,
    MediaAnalysedHandler,
    RenditionOverrides,
    PublicationPreviews,
    ResourceReads,
  ],
})
export class PublishingModule {}
