import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsPatterns,
  AuthTokens,
  ChangePasswordRequest,
  LoginRequest,
  RefreshRequest,
  RegisterRequest,
  RpcRequest,
  SessionRevokedEvent,
} from '@social/contracts';
import { requireAccountPrincipal, requirePrincipal, validateInput } from '@social/platform';

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

  @MessagePattern(AccountsPatterns.register)
  register(@Payload() req: RpcRequest<RegisterRequest>): Promise<AuthTokens> {
    return this.auth.register(validateInput(RegisterRequest, req.body, 'body'), req.clientIp);
  }

  @MessagePattern(AccountsPatterns.login)
  login(@Payload() req: RpcRequest<LoginRequest>): Promise<AuthTokens> {
    return this.auth.login(validateInput(LoginRequest, req.body, 'body'), req.clientIp);
  }

  @MessagePattern(AccountsPatterns.refresh)
  refresh(@Payload() req: RpcRequest<RefreshRequest>): Promise<AuthTokens> {
    return this.auth.refresh(validateInput(RefreshRequest, req.body, 'body').refresh_token);
  }

  @MessagePattern(AccountsPatterns.logout)
  async logout(@Payload() req: RpcRequest): Promise<null> {
    await this.auth.logout(requirePrincipal(req).sessionId);
    return null;
  }

  @MessagePattern(AccountsPatterns.changePassword)
  async changePassword(@Payload() req: RpcRequest<ChangePasswordRequest>): Promise<null> {
    const principal = requireAccountPrincipal(req);
    await this.passwords.change(principal, validateInput(ChangePasswordRequest, req.body, 'body'), req.clientIp);
    return null;
  }

  @MessagePattern(AccountsPatterns.listRevokedSessions)
  async listRevokedSessions(): Promise<SessionRevokedEvent[]> {
    // API tokens are revoked like sessions (their id stands in for the session id).
    const [sessions, tokens] = await Promise.all([this.auth.recentlyRevoked(), this.apiTokens.recentlyRevoked()]);
    return [...sessions, ...tokens];
  }
}
