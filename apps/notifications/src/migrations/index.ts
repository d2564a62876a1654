import { CreateNotifications1763769600001 } from './1763769600001-create-notifications.js';
import { CreateDelivery1763769600002 } from './1763769600002-create-delivery.js';

/** Every migration of the notifications schema, oldest first. */
export const notificationsMigrations = [CreateNotifications1763769600001, CreateDelivery1763769600002];
