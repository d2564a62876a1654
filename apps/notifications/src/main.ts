import { NOTIFICATIONS_SERVICE, ORGANIZATION_DELETED_SUBJECT } from '@social/contracts';
import { AccessModule, runService } from '@social/platform';
import { notificationsSettings } from './config.js';
import { notificationsMigrations } from './migrations/index.js';
import { MuteEntity } from './mutes/mute.entity.js';
import { NotificationsModule } from './notifications.module.js';
import { OrganizationDeletedHandler } from './tenancy/organization-deleted.handler.js';

void runService({
  name: NOTIFICATIONS_SERVICE,
  settings: notificationsSettings,
  // Preferences are read and written with hand-written SQL (one round trip each).
  entities: [MuteEntity],
  migrations: notificationsMigrations,
  imports: [AccessModule, NotificationsModule],
  // Deleted organizations' workspace mutes are purged, even if we were down when it happened.
  eventConsumers: [
    { durable: 'notifications-organization-deleted', subjects: [ORGANIZATION_DELETED_SUBJECT], handler: OrganizationDeletedHandler },
  ],
});
