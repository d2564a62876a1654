import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountsPatterns, ReauthGrant, ReauthRequest, RpcRequest } from '@social/contracts';
import { requireAccountPrincipal, validateInput } from '@social/platform';
import { ReauthService } from './reauth.service.js';

@Controller()
export class ReauthHandler {
  constructor(private readonly reauth: ReauthService) {}

  @MessagePattern(AccountsPatterns.reauth)
  create(@Payload() req: RpcRequest<ReauthRequest>): Promise<ReauthGrant> {
    const principal = requireAccountPrincipal(req);
    const body = validateInput(ReauthRequest, req.body, 'body');
    return this.reauth.reauthenticate(principal, body.password);
  }
}
