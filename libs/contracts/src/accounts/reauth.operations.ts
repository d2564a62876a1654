import { operation } from '../common/operation.js';
import { ReauthGrant, ReauthRequest } from './reauth.dto.js';

/** Confirming the password again for a single-use grant (accounts service). */
export const ReauthOperations = {
  create: operation({ subject: 'accounts.reauth.create', caller: 'account', body: ReauthRequest, answer: ReauthGrant }),
};
