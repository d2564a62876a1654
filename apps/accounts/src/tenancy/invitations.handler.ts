import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AcceptInvitationRequest,
  CreateInvitationRequest,
  InvitationAcceptance,
  RpcRequest,
  TenancyPatterns,
  WorkspaceInvitation,
  WorkspaceInvitationList,
} from '@social/contracts';
import { requireAccountPrincipal, requirePrincipal, validateInput } from '@social/platform';
import { InvitationsService } from './invitations.service.js';

type Path = { id: string; invitation_id?: string };

@Controller()
export class InvitationsHandler {
  constructor(private readonly invitations: InvitationsService) {}

  @MessagePattern(TenancyPatterns.createInvitation)
  create(@Payload() req: RpcRequest<CreateInvitationRequest, unknown, Path>): Promise<WorkspaceInvitation> {
    const principal = requirePrincipal(req);
    return this.invitations.create(principal, req.params.id, validateInput(CreateInvitationRequest, req.body, 'body'));
  }

  @MessagePattern(TenancyPatterns.listInvitations)
  async list(@Payload() req: RpcRequest<unknown, unknown, Path>): Promise<WorkspaceInvitationList> {
    return { invitations: await this.invitations.list(requirePrincipal(req), req.params.id) };
  }

  @MessagePattern(TenancyPatterns.getInvitation)
  get(@Payload() req: RpcRequest<unknown, unknown, Path>): Promise<WorkspaceInvitation> {
    return this.invitations.get(requirePrincipal(req), req.params.id, req.params.invitation_id ?? '');
  }

  @MessagePattern(TenancyPatterns.revokeInvitation)
  async revoke(@Payload() req: RpcRequest<unknown, unknown, Path>): Promise<null> {
    await this.invitations.revoke(requirePrincipal(req), req.params.id, req.params.invitation_id ?? '');
    return null;
  }

  @MessagePattern(TenancyPatterns.resendInvitation)
  resend(@Payload() req: RpcRequest<unknown, unknown, Path>): Promise<WorkspaceInvitation> {
    return this.invitations.resend(requirePrincipal(req), req.params.id, req.params.invitation_id ?? '');
  }

  @MessagePattern(TenancyPatterns.acceptInvitation)
  accept(@Payload() req: RpcRequest<AcceptInvitationRequest>): Promise<InvitationAcceptance> {
    const principal = requireAccountPrincipal(req);
    return this.invitations.accept(principal, validateInput(AcceptInvitationRequest, req.body, 'body').token);
  }
}
