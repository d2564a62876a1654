import { nothing, operation } from '../common/operation.js';
import { ListNotificationsQuery, NotificationList, NotificationUnreadCount } from './inbox.dto.js';

/** The caller's in-app inbox (notifications service); another user's item is answered like a missing one. */
export const InboxOperations = {
  list: operation({ subject: 'notifications.inbox.list', caller: 'account', query: ListNotificationsQuery, answer: NotificationList }),
  read: operation({ subject: 'notifications.inbox.read', caller: 'account', params: { id: 'No such notification.' }, answer: nothing }),
  readAll: operation({ subject: 'notifications.inbox.read-all', caller: 'account', answer: nothing }),
  unreadCount: operation({ subject: 'notifications.inbox.unread-count', caller: 'account', answer: NotificationUnreadCount }),
};
