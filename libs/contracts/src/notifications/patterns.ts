export const NOTIFICATIONS_SERVICE = 'notifications';

export const NotificationsPatterns = {
  getPreferences: 'notifications.preferences.get',
  replacePreferences: 'notifications.preferences.replace',
  createMute: 'notifications.mutes.create',
  deleteMute: 'notifications.mutes.delete',
} as const;
