import { ConfigOf, serviceSettings } from '@social/platform';

export const notificationsSettings = { ...serviceSettings };
export type NotificationsConfig = ConfigOf<typeof notificationsSettings>;
