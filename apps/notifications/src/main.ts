import { NOTIFICATIONS_SERVICE } from '@social/contracts';
import { AccessModule, runService } from '@social/platform';
import { notificationsSettings } from './config.js';
import { notificationsMigrations } from './migrations/index.js';
import { MuteEntity } from './mutes/mute.entity.js';
import { NotificationsModule } from './notifications.module.js';

void runService({
  name: NOTIFICATIONS_SERVICE,
  settings: notificationsSettings,
  // Preferences are read and written with hand-written SQL (one round trip each).
  entities: [MuteEntity],
  migrations: notificationsMigrations,
  imports: [AccessModule, NotificationsModule],
});
