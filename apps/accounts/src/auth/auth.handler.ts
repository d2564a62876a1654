import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AccountsPatterns, AuthOperations, type AuthTokens, type InputOf, type SessionRevokedEvent } from '@social/contracts';
import { Handles, Input } from '@social/platform';

import { ApiTokensService } from '../api-tokens/api-tokens.service.js';
import { AuthService } from './auth.service.js';
import { PasswordService } from './password.service.js';

@Controller()
export class AuthHandler {
  constructor(
    private readonly auth: AuthService,
    private readonly apiTokens: ApiTokensService,
    private readonly passwords: PasswordService,
  ) {}

  @Handles(AuthOperations.register)
  register(@Input() { body, clientIp }: InputOf<typeof AuthOperations.register>): Promise<AuthTokens> {
    return this.auth.register(body, clientIp);
  }

  @Handles(AuthOperations.login)
  login(@Input() { body, clientIp }: InputOf<typeof AuthOperations.login>): Promise<AuthTokens> {
    return this.auth.login(body, clientIp);
  }

  @Handles(AuthOperations.refresh)
  refresh(@Input() { body }: InputOf<typeof AuthOperations.refresh>): Promise<AuthTokens> {
    return this.auth.refresh(body.refresh_token);
  }

  @Handles(AuthOperations.logout)
  async logout(@Input() { principal }: InputOf<typeof AuthOperations.logout>): Promise<null> {
    await this.auth.logout(principal.sessionId);
    return null;
  }

  @Handles(AuthOperations.changePassword)
  async changePassword(@Input() { principal, body, clientIp }: InputOf<typeof AuthOperations.changePassword>): Promise<null> {
    await this.passwords.change(principal, body, clientIp);
    return null;
  }

  @MessagePattern(AccountsPatterns.listRevokedSessions)
  async listRevokedSessions(): Promise<SessionRevokedEvent[]> {
    // API tokens are revoked like sessions (their id stands in for the session id).
    const [sessions, tokens] = await Promise.all([this.auth.recentlyRevoked(), this.apiTokens.recentlyRevoked()]);
    return [...sessions, ...tokens];
  }
}
