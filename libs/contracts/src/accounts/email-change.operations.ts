import { nothing, operation } from '../common/operation.js';
import { ConfirmEmailChangeRequest, EmailChangeSummary, PendingEmailChange, RequestEmailChangeRequest } from './email-change.dto.js';
import { UserProfile } from './profile.dto.js';

const NO_SUCH_EMAIL_CHANGE = 'No such email change.';

/** Changing the caller's sign-in email (accounts service); another user's change is answered like a missing one. */
export const EmailChangeOperations = {
  request: operation({
    subject: 'accounts.email-change.request',
    caller: 'account',
    body: RequestEmailChangeRequest,
    answer: EmailChangeSummary,
  }),
  confirm: operation({
    subject: 'accounts.email-change.confirm',
    caller: 'account',
    params: { id: NO_SUCH_EMAIL_CHANGE },
    body: ConfirmEmailChangeRequest,
    answer: UserProfile,
  }),
  /** The change awaiting its code, if any. */
  getPending: operation({ subject: 'accounts.email-change.get', caller: 'account', answer: PendingEmailChange }),
  get: operation({
    subject: 'accounts.email-change.get-one',
    caller: 'account',
    params: { id: NO_SUCH_EMAIL_CHANGE },
    answer: EmailChangeSummary,
  }),
  cancel: operation({ subject: 'accounts.email-change.cancel', caller: 'account', params: { id: NO_SUCH_EMAIL_CHANGE }, answer: nothing }),
};
