import { operation } from '../common/operation.js';
import { NotificationPreferenceSettings, UpdatePreferencesRequest } from './preferences.dto.js';

/** The caller's delivery preferences (notifications service): account-level, refused to workspace-bound tokens. */
export const NotificationPreferenceOperations = {
  get: operation({ subject: 'notifications.preferences.get', caller: 'account', answer: NotificationPreferenceSettings }),
  replace: operation({
    subject: 'notifications.preferences.replace',
    caller: 'account',
    body: UpdatePreferencesRequest,
    answer: NotificationPreferenceSettings,
  }),
};
