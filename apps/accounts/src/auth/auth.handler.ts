import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsPatterns,
  AuthTokens,
  LoginRequest,
  RefreshRequest,
  RegisterRequest,
  RpcRequest,
  SessionRevokedEvent,
} from '@social/contracts';
import { requirePrincipal, validateInput } from '@social/platform';

import { ApiTokensService } from '../api-tokens/api-tokens.service.js';
import { AuthService } from './auth.service.js';

@Controller()
export class AuthHandler {
  constructor(
    private readonly auth: AuthService,
    private readonly apiTokens: ApiTokensService,
  ) {}

  @MessagePattern(AccountsPatterns.register)
  register(@Payload() req: RpcRequest<RegisterRequest>): Promise<AuthTokens> {
    return this.auth.register(validateInput(RegisterRequest, req.body, 'body'));
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

  @MessagePattern(AccountsPatterns.listRevokedSessions)
  async listRevokedSessions(): Promise<SessionRevokedEvent[]> {
    // API tokens are revoked like sessions (their id stands in for the session id).
    const [sessions, tokens] = await Promise.all([this.auth.recentlyRevoked(), this.apiTokens.recentlyRevoked()]);
    return [...sessions, ...tokens];
  }
}
