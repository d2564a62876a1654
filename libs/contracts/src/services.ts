import { ACCOUNTS_SERVICE } from './accounts/patterns.js';
import { NOTIFICATIONS_SERVICE } from './notifications/patterns.js';

/** Every domain service behind the gateway: /ready waits for each, the stack launcher starts each. */
export const BACKEND_SERVICES = [ACCOUNTS_SERVICE, NOTIFICATIONS_SERVICE] as const;
