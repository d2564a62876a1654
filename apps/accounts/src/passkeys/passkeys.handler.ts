import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsPatterns,
  BeginPasskeyRequest,
  FinishPasskeyRequest,
  PasskeyRegistrationOptions,
  RpcRequest,
  SecurityStatus,
} from '@social/contracts';
import { requireAccountPrincipal, validateInput } from '@social/platform';
import { PasskeysService } from './passkeys.service.js';

@Controller()
export class PasskeysHandler {
  constructor(private readonly passkeys: PasskeysService) {}

  @MessagePattern(AccountsPatterns.beginPasskey)
  begin(@Payload() req: RpcRequest<BeginPasskeyRequest>): Promise<PasskeyRegistrationOptions> {
    const principal = requireAccountPrincipal(req);
    const body = validateInput(BeginPasskeyRequest, req.body, 'body');
    return this.passkeys.begin(principal, body.reauth_grant);
  }

  @MessagePattern(AccountsPatterns.finishPasskey)
  finish(@Payload() req: RpcRequest<FinishPasskeyRequest>): Promise<SecurityStatus> {
    return this.passkeys.finish(requireAccountPrincipal(req), validateInput(FinishPasskeyRequest, req.body, 'body'));
  }

  @MessagePattern(AccountsPatterns.deletePasskey)
  async delete(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<null> {
    await this.passkeys.delete(requireAccountPrincipal(req).userId, req.params.id);
    return null;
  }
}
