import { operation } from '../common/operation.js';
import { SecurityStatus, UpdateProfileRequest, UserProfile } from './profile.dto.js';

/** The caller's profile and security status (accounts service). */
export const ProfileOperations = {
  get: operation({ subject: 'accounts.profile.get', answer: UserProfile }),
  update: operation({ subject: 'accounts.profile.update', caller: 'account', body: UpdateProfileRequest, answer: UserProfile }),
  getSecurity: operation({ subject: 'accounts.security.get', caller: 'account', answer: SecurityStatus }),
};
