import { nothing, operation } from '../common/operation.js';
import { LoginRequest, RefreshRequest, RegisterRequest } from './auth.dto.js';
import { ChangePasswordRequest } from './password.dto.js';
import { AuthTokens } from './profile.dto.js';

/** Sign-up, sign-in and sessions (accounts service). */
export const AuthOperations = {
  register: operation({ subject: 'accounts.auth.register', caller: 'anyone', body: RegisterRequest, answer: AuthTokens }),
  login: operation({ subject: 'accounts.auth.login', caller: 'anyone', body: LoginRequest, answer: AuthTokens }),
  refresh: operation({ subject: 'accounts.auth.refresh', caller: 'anyone', body: RefreshRequest, answer: AuthTokens }),
  logout: operation({ subject: 'accounts.auth.logout', answer: nothing }),
  /** POST /auth/password: other sessions and every API token of the user are revoked. */
  changePassword: operation({ subject: 'accounts.auth.change-password', caller: 'account', body: ChangePasswordRequest, answer: nothing }),
};
