export const NOTIFICATIONS_SERVICE = 'notifications';

export const NotificationsPatterns = {
  getPreferences: 'notifications.preferences.get',
  replacePreferences: 'notifications.preferences.replace',
  createMute: 'notifications.mutes.create',
  listMutes: 'notifications.mutes.list',
  getMute: 'notifications.mutes.get',
  deleteMute: 'notifications.mutes.delete',
  listNotifications: 'notifications.inbox.list',
  readNotification: 'notifications.inbox.read',
  readAllNotifications: 'notifications.inbox.read-all',
  unreadCount: 'notifications.inbox.unread-count',
} as const;
