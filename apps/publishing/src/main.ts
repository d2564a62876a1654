import '@social/platform/tracing'; // first: OpenTelemetry patches http and pg as they load
import { MEDIA_ITEM_ANALYSED_SUBJECT, ORGANIZATION_DELETED_SUBJECT, PUBLISHING_SERVICE } from '@social/contracts';
import { AccessModule, runService } from '@social/platform';
import { publishingSettings } from './config.js';
import { publishingMigrations } from './migrations/index.js';
import { PublicationEntity, PublicationSegmentEntity } from './publications/publication.entity.js';
import { RenditionEntity, RenditionSegmentEntity } from './publications/rendition.entity.js';
import { PublishingModule } from './publishing.module.js';
import { SocialAccountEntity } from './social-accounts/social-account.entity.js';
import { SocialSetEntity } from './social-sets/social-set.entity.js';
import { MediaAnalysedHandler } from './media/media-analysed.handler.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';
import { VoiceProfileEntity } from './voice-profiles/voice-profile.entity.js';
import { publishingSealedColumns } from './social-accounts/sealed-columns.js';

void runService({
  name: PUBLISHING_SERVICE,
  settings: publishingSettings,
  entities: [
    SocialAccountEntity,
    SocialSetEntity,
    VoiceProfileEntity,
    PublicationEntity,
    PublicationSegmentEntity,
    RenditionEntity,
    RenditionSegmentEntity,
  ],
  migrations: publishingMigrations,
  imports: [AccessModule, PublishingModule],
  // sandbox_provider_enabled, and the AI provider of publication builds.
  instanceSettings: true,
  // Re-sealed by `main.js reseal` after a SECRETS_KEY rotation.
  sealedColumns: publishingSealedColumns,
  // Delivery outcomes and account problems (durable.publishing.*) leave through the outbox.
  outbox: true,
  // Deleted organizations' accounts, sets, profiles and publications are purged, even if we were down when it happened.
  eventConsumers: [
    { durable: 'publishing-organization-deleted', subjects: [ORGANIZATION_DELETED_SUBJECT], handler: OrganizationDeletedHandler },
    // Analysis results and public-URL checks of attached media refresh what PublicationMedia shows.
    { durable: 'publishing-media-analysed', subjects: [MEDIA_ITEM_ANALYSED_SUBJECT], handler: MediaAnalysedHandler },
  ],
});
