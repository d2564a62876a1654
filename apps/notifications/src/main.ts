import '@social/platform/tracing'; // first: OpenTelemetry patches http and pg as they load
import {
  ACCOUNT_NEEDS_ATTENTION_SUBJECT,
  NOTIFICATIONS_SERVICE,
  ORGANIZATION_DELETED_SUBJECT,
  RENDITION_FAILED_SUBJECT,
  RENDITION_NEEDS_ATTENTION_SUBJECT,
  RENDITION_PUBLISHED_SUBJECT,
  ROLE_CHANGED_SUBJECT,
  SECURITY_ACTION_SUBJECT,
  WEBHOOK_DEACTIVATED_SUBJECT,
} from '@social/contracts';
import { AccessModule, runService } from '@social/platform';
import { notificationsSettings } from './config.js';
import { notificationsMigrations } from './migrations/index.js';
import { MuteEntity } from './mutes/mute.entity.js';
import { NotificationsModule } from './notifications.module.js';
import { RoleChangedSource, SecurityActionSource } from './sources/accounts.sources.js';
import {
  AccountNeedsAttentionSource,
  RenditionFailedSource,
  RenditionNeedsAttentionSource,
  RenditionPublishedSource,
} from './sources/publishing.sources.js';
import { WebhookDeactivatedSource } from './sources/webhooks.sources.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

/** Events one replica turns into notifications at once, per source (their reads and writes go in shared statements). */
const SOURCE_CONCURRENCY = 16;

void runService({
  name: NOTIFICATIONS_SERVICE,
  settings: notificationsSettings,
  // Preferences, the inbox and mail are read and written with hand-written SQL.
  entities: [MuteEntity],
  migrations: notificationsMigrations,
  imports: [AccessModule, NotificationsModule],
  // smtp_url, smtp_from (mail) and public_app_url (links in mail), like accounts.
  instanceSettings: true,
  // One durable consumer per subject (nats-server 2.9: one filter each); each event source is one handler.
  // Sources handle several events at once: each is one short transaction keyed by (event, recipient).
  eventConsumers: [
    { durable: 'notifications-organization-deleted', subjects: [ORGANIZATION_DELETED_SUBJECT], handler: OrganizationDeletedHandler },
    {
      durable: 'notifications-rendition-published',
      subjects: [RENDITION_PUBLISHED_SUBJECT],
      handler: RenditionPublishedSource,
      concurrency: SOURCE_CONCURRENCY,
    },
    {
      durable: 'notifications-rendition-failed',
      subjects: [RENDITION_FAILED_SUBJECT],
      handler: RenditionFailedSource,
      concurrency: SOURCE_CONCURRENCY,
    },
    {
      durable: 'notifications-rendition-needs-attention',
      subjects: [RENDITION_NEEDS_ATTENTION_SUBJECT],
      handler: RenditionNeedsAttentionSource,
      concurrency: SOURCE_CONCURRENCY,
    },
    {
      durable: 'notifications-account-needs-attention',
      subjects: [ACCOUNT_NEEDS_ATTENTION_SUBJECT],
      handler: AccountNeedsAttentionSource,
      concurrency: SOURCE_CONCURRENCY,
    },
    {
      durable: 'notifications-security-action',
      subjects: [SECURITY_ACTION_SUBJECT],
      handler: SecurityActionSource,
      concurrency: SOURCE_CONCURRENCY,
    },
    {
      durable: 'notifications-role-changed',
      subjects: [ROLE_CHANGED_SUBJECT],
      handler: RoleChangedSource,
      concurrency: SOURCE_CONCURRENCY,
    },
    { durable: 'notifications-webhook-deactivated', subjects: [WEBHOOK_DEACTIVATED_SUBJECT], handler: WebhookDeactivatedSource },
  ],
});
