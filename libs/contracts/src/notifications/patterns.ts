export const NOTIFICATIONS_SERVICE = 'notifications';
