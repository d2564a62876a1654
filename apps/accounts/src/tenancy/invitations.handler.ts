import { Controller } from '@nestjs/common';
import {
  InvitationOperations,
  type InputOf,
  type InvitationAcceptance,
  type WorkspaceInvitation,
  type WorkspaceInvitationList,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { InvitationsService } from './invitations.service.js';

@Controller()
export class InvitationsHandler {
  constructor(private readonly invitations: InvitationsService) {}

  @Handles(InvitationOperations.create)
  create(@Input() { principal, params, body }: InputOf<typeof InvitationOperations.create>): Promise<WorkspaceInvitation> {
    return this.invitations.create(principal, params.id, body);
  }

  @Handles(InvitationOperations.list)
  async list(@Input() { principal, params }: InputOf<typeof InvitationOperations.list>): Promise<WorkspaceInvitationList> {
    return { invitations: await this.invitations.list(principal, params.id) };
  }

  @Handles(InvitationOperations.get)
  get(@Input() { principal, params }: InputOf<typeof InvitationOperations.get>): Promise<WorkspaceInvitation> {
    return this.invitations.get(principal, params.id, params.invitation_id);
  }

  @Handles(InvitationOperations.revoke)
  async revoke(@Input() { principal, params }: InputOf<typeof InvitationOperations.revoke>): Promise<null> {
    await this.invitations.revoke(principal, params.id, params.invitation_id);
    return null;
  }

  @Handles(InvitationOperations.resend)
  resend(@Input() { principal, params }: InputOf<typeof InvitationOperations.resend>): Promise<WorkspaceInvitation> {
    return this.invitations.resend(principal, params.id, params.invitation_id);
  }

  @Handles(InvitationOperations.accept)
  accept(@Input() { principal, body }: InputOf<typeof InvitationOperations.accept>): Promise<InvitationAcceptance> {
    return this.invitations.accept(principal, body.token);
  }
}
