import { nothing, operation } from '../common/operation.js';
import { NotificationMuteList } from './inbox.dto.js';
import { CreateMuteRequest, NotificationMute } from './preferences.dto.js';

const NO_SUCH_MUTE = 'No such mute.';

/** The caller's notification mutes (notifications service); another user's mute is answered like a missing one. */
export const NotificationMuteOperations = {
  create: operation({ subject: 'notifications.mutes.create', caller: 'account', body: CreateMuteRequest, answer: NotificationMute }),
  list: operation({ subject: 'notifications.mutes.list', caller: 'account', answer: NotificationMuteList }),
  get: operation({ subject: 'notifications.mutes.get', caller: 'account', params: { id: NO_SUCH_MUTE }, answer: NotificationMute }),
  delete: operation({ subject: 'notifications.mutes.delete', caller: 'account', params: { id: NO_SUCH_MUTE }, answer: nothing }),
};
