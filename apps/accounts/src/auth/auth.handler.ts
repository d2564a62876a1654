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

import { AuthService } from './auth.service.js';

@Controller()
export class AuthHandler {
  constructor(private readonly auth: AuthService) {}

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
  listRevokedSessions(): Promise<SessionRevokedEvent[]> {
    return this.auth.recentlyRevoked();
  }
}
