import { Module } from '@nestjs/common';
import { DigestScheduler } from './digest/digest-scheduler.js';
import { EventSources } from './delivery/event-sources.js';
import { NotificationDispatcher } from './delivery/notification-dispatcher.js';
import { EmailSender } from './email/email-sender.js';
import { NotificationsMailSettings } from './email/notifications-mail-settings.js';
import { InboxHandler } from './inbox/inbox.handler.js';
import { InboxService } from './inbox/inbox.service.js';
import { MutesHandler } from './mutes/mutes.handler.js';
import { MutesService } from './mutes/mutes.service.js';
import { PreferencesHandler } from './preferences/preferences.handler.js';
import { PreferencesService } from './preferences/preferences.service.js';
import {
  AccountNeedsAttentionSource,
  RenditionFailedSource,
  RenditionNeedsAttentionSource,
  RenditionPublishedSource,
} from './sources/publishing.sources.js';
import { RoleChangedSource, SecurityActionSource } from './sources/accounts.sources.js';
import { WebhookDeactivatedSource } from './sources/webhooks.sources.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

/** Every event source: one handler each, named in main.ts's eventConsumers. */
export const EVENT_SOURCES = [
  RenditionPublishedSource,
  RenditionFailedSource,
  RenditionNeedsAttentionSource,
  AccountNeedsAttentionSource,
  SecurityActionSource,
  RoleChangedSource,
  WebhookDeactivatedSource,
];

@Module({
  controllers: [PreferencesHandler, MutesHandler, InboxHandler],
  providers: [
    PreferencesService,
    MutesService,
    InboxService,
    OrganizationDeletedHandler,
    NotificationsMailSettings,
    NotificationDispatcher,
    EventSources,
    ...EVENT_SOURCES,
    EmailSender,
    DigestScheduler,
  ],
})
export class NotificationsModule {}
