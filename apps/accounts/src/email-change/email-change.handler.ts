import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsPatterns,
  ConfirmEmailChangeRequest,
  EmailChangeSummary,
  PendingEmailChange,
  RequestEmailChangeRequest,
  RpcRequest,
  UserProfile,
} from '@social/contracts';
import { requireAccountPrincipal, validateInput } from '@social/platform';
import { EmailChangeService } from './email-change.service.js';

@Controller()
export class EmailChangeHandler {
  constructor(private readonly emailChanges: EmailChangeService) {}

  @MessagePattern(AccountsPatterns.requestEmailChange)
  request(@Payload() req: RpcRequest<RequestEmailChangeRequest>): Promise<EmailChangeSummary> {
    return this.emailChanges.request(requireAccountPrincipal(req), validateInput(RequestEmailChangeRequest, req.body, 'body'));
  }

  @MessagePattern(AccountsPatterns.confirmEmailChange)
  confirm(@Payload() req: RpcRequest<ConfirmEmailChangeRequest, unknown, { id: string }>): Promise<UserProfile> {
    const principal = requireAccountPrincipal(req);
    const body = validateInput(ConfirmEmailChangeRequest, req.body, 'body');
    return this.emailChanges.confirm(principal, req.params.id, body.code);
  }

  @MessagePattern(AccountsPatterns.getEmailChange)
  get(@Payload() req: RpcRequest): Promise<PendingEmailChange> {
    return this.emailChanges.pending(requireAccountPrincipal(req).userId);
  }

  @MessagePattern(AccountsPatterns.getEmailChangeById)
  getOne(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<EmailChangeSummary> {
    return this.emailChanges.get(requireAccountPrincipal(req).userId, req.params.id);
  }

  @MessagePattern(AccountsPatterns.cancelEmailChange)
  async cancel(@Payload() req: RpcRequest<unknown, unknown, { id: string }>): Promise<null> {
    await this.emailChanges.cancel(requireAccountPrincipal(req).userId, req.params.id);
    return null;
  }
}
