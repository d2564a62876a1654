import { nothing, operation } from '../common/operation.js';
import {
  BeginPasskeyRequest,
  FinishPasskeyRequest,
  FinishPasskeySignInRequest,
  PasskeyRegistrationOptions,
  PasskeySignInOptions,
} from './passkeys.dto.js';
import { AuthTokens, SecurityStatus } from './profile.dto.js';

/** Registering and removing the caller's passkeys (accounts service); another user's passkey is answered like a missing one. */
export const PasskeyOperations = {
  begin: operation({
    subject: 'accounts.passkeys.begin',
    caller: 'account',
    body: BeginPasskeyRequest,
    answer: PasskeyRegistrationOptions,
  }),
  finish: operation({ subject: 'accounts.passkeys.finish', caller: 'account', body: FinishPasskeyRequest, answer: SecurityStatus }),
  delete: operation({ subject: 'accounts.passkeys.delete', caller: 'account', params: { id: 'No such passkey.' }, answer: nothing }),
  /** Signing in with a passkey: a challenge for any passkey of this relying party, then the assertion for a session. */
  signInBegin: operation({ subject: 'accounts.passkeys.sign-in.begin', caller: 'anyone', answer: PasskeySignInOptions }),
  signInFinish: operation({
    subject: 'accounts.passkeys.sign-in.finish',
    caller: 'anyone',
    body: FinishPasskeySignInRequest,
    answer: AuthTokens,
  }),
};
