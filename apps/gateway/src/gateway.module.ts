import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { NatsConnection } from '@nats-io/transport-node';
import { TerminusModule } from '@nestjs/terminus';
import { type MediaStorage, type Metrics, Probes } from '@social/platform';
import type { Logger } from 'pino';
import { ApiTokensController } from './accounts/api-tokens.controller.js';
import { AuthController } from './accounts/auth.controller.js';
import { EmailChangeController } from './accounts/email-change.controller.js';
import { MeController } from './accounts/me.controller.js';
import { PasskeySignInController } from './accounts/passkey-sign-in.controller.js';
import { PasskeysController } from './accounts/passkeys.controller.js';
import { ReauthController } from './accounts/reauth.controller.js';
import { AiPromptsController } from './admin/ai-prompts.controller.js';
import { DirectoryController } from './admin/directory.controller.js';
import { InstanceSettingsController } from './admin/instance-settings.controller.js';
import { ProviderAppsController } from './admin/provider-apps.controller.js';
import { BearerAuthGuard } from './auth/bearer-auth.guard.js';
import { RevokedSessions } from './auth/revoked-sessions.js';
import { TokenRateLimiter } from './auth/token-rate-limiter.js';
import { GATEWAY_CONFIG, GatewayConfig } from './config.js';
import { Forwarder } from './rpc/forwarder.js';
import { DesignsController } from './creative/designs.controller.js';
import { TemplatesController } from './creative/templates.controller.js';
import { HealthController } from './health/health.controller.js';
import { AnalyticsController } from './insights/analytics.controller.js';
import { GrowthController } from './insights/growth.controller.js';
import { ProblemFilter } from './http/problem.filter.js';
import { SchemaInterceptor } from './http/schema.interceptor.js';
import { GATEWAY_LOGGER } from './logger.js';
import { MediaController } from './media/media.controller.js';
import { PublicMediaController } from './media/public-media.controller.js';
import { MediaTagsController } from './media/media-tags.controller.js';
import { GATEWAY_MEDIA_STORAGE } from './media/media-storage.js';
import { UploadSessionsController } from './media/upload-sessions.controller.js';
import { InboxController } from './notifications/inbox.controller.js';
import { MutesController } from './notifications/mutes.controller.js';
import { PreferencesController } from './notifications/preferences.controller.js';
import { PublicationBuildsController } from './publishing/publication-builds.controller.js';
import { SocialAccountsController } from './publishing/social-accounts.controller.js';
import { SocialSetsController } from './publishing/social-sets.controller.js';
import { VoiceProfilesController } from './publishing/voice-profiles.controller.js';
import { PublicationsController } from './publishing/publications.controller.js';
import { RpcModule } from './rpc/rpc.module.js';
import { ThemesController } from './creative/themes.controller.js';
import { VideoProjectsController } from './creative/video-projects.controller.js';
import { InvitationsController } from './tenancy/invitations.controller.js';
import { OrganizationsController } from './tenancy/organizations.controller.js';
import { WorkspacesController } from './tenancy/workspaces.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';

@Module({})
export class GatewayModule {
  static forRoot(
    config: GatewayConfig,
    nats: NatsConnection,
    logger: Logger,
    mediaStorage: MediaStorage,
    metrics?: Metrics,
  ): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        RpcModule.forConnection(nats, config.RPC_TIMEOUT_MS, metrics, config.JWT_PRIVATE_KEY),
        TerminusModule.forRoot({ logger: false }),
      ],
      controllers: [
        HealthController,
        AuthController,
        MeController,
        PreferencesController,
        MutesController,
        InboxController,
        ReauthController,
        PasskeysController,
        PasskeySignInController,
        EmailChangeController,
        ApiTokensController,
        OrganizationsController,
        WorkspacesController,
        InvitationsController,
        ProviderAppsController,
        InstanceSettingsController,
        AiPromptsController,
        DirectoryController,
        SocialAccountsController,
        SocialSetsController,
        VoiceProfilesController,
        PublicationBuildsController,
        PublicationsController,
        UploadSessionsController,
        PublicMediaController,
        MediaTagsController,
        MediaController,
        GrowthController,
        AnalyticsController,
        VideoProjectsController,
        ThemesController,
        DesignsController,
        TemplatesController,
        WebhooksController,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: GATEWAY_LOGGER, useValue: logger },
        { provide: GATEWAY_MEDIA_STORAGE, useValue: mediaStorage },
        Forwarder,
        RevokedSessions,
        Probes,
        TokenRateLimiter,
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_INTERCEPTOR, useClass: SchemaInterceptor },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
