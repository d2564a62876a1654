import { ACCOUNTS_SERVICE } from './accounts/patterns.js';
import { ADMIN_SERVICE } from './admin/patterns.js';
import { CREATIVE_SERVICE } from './creative/patterns.js';
import { INSIGHTS_SERVICE } from './insights/patterns.js';
import { MEDIA_SERVICE } from './media/patterns.js';
import { NOTIFICATIONS_SERVICE } from './notifications/patterns.js';
import { PUBLISHING_SERVICE } from './publishing/patterns.js';
import { WEBHOOKS_SERVICE } from './webhooks/patterns.js';

/** Every domain service behind the gateway: /ready waits for each, the stack launcher starts each. */
export const BACKEND_SERVICES = [
  ACCOUNTS_SERVICE,
  NOTIFICATIONS_SERVICE,
  ADMIN_SERVICE,
  PUBLISHING_SERVICE,
  MEDIA_SERVICE,
  CREATIVE_SERVICE,
  INSIGHTS_SERVICE,
  WEBHOOKS_SERVICE,
] as const;
