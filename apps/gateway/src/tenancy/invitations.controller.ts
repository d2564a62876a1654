import { Body, Controller, Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AcceptInvitationRequest,
  CreateInvitationRequest,
  InvitationAcceptance,
  InvitationOperations,
  WorkspaceInvitation,
  WorkspaceInvitationList,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Workspaces')
@ApiBearerAuth()
@Controller()
export class InvitationsController {
  constructor(private readonly forward: Forwarder) {}

  @Post('workspaces/:id/invitations')
  @ApiOperation({ summary: 'Invite an address to the workspace (admins); emailed, `accept_url` shown only here and on resend' })
  @Returns(WorkspaceInvitation, 201)
  @Refuses(400, 403, 404, 409, 413, 415, 422)
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('id') id: string,
    @Body(new ValidBody(CreateInvitationRequest)) body: CreateInvitationRequest,
  ): Promise<WorkspaceInvitation> {
    const invitation = await this.forward.send(InvitationOperations.create, req, { params: { id }, body });
    reply.header('location', `/workspaces/${id}/invitations/${invitation.id}`);
    return invitation;
  }

  @Get('workspaces/:id/invitations')
  @ApiOperation({ summary: "The workspace's invitations, newest first, without secrets (admins)" })
  @Returns(WorkspaceInvitationList)
  @Refuses(403, 404)
  list(@Req() req: FastifyRequest, @Param('id') id: string): Promise<WorkspaceInvitationList> {
    return this.forward.send(InvitationOperations.list, req, { params: { id } });
  }

  @Get('workspaces/:id/invitations/:invitation_id')
  @ApiOperation({ summary: 'One invitation, without its secret (admins)' })
  @Returns(WorkspaceInvitation)
  @Refuses(403, 404)
  get(@Req() req: FastifyRequest, @Param('id') id: string, @Param('invitation_id') invitationId: string): Promise<WorkspaceInvitation> {
    return this.forward.send(InvitationOperations.get, req, { params: { id, invitation_id: invitationId } });
  }

  @Delete('workspaces/:id/invitations/:invitation_id')
  @ApiOperation({ summary: 'Revoke an invitation (admins); its link stops working' })
  @ReturnsNothing()
  @Refuses(403, 404, 409)
  async revoke(@Req() req: FastifyRequest, @Param('id') id: string, @Param('invitation_id') invitationId: string): Promise<void> {
    await this.forward.send(InvitationOperations.revoke, req, { params: { id, invitation_id: invitationId } });
  }

  @Post('workspaces/:id/invitations/:invitation_id/resend')
  @ApiOperation({ summary: 'Resend a pending or expired invitation with a new secret and seven more days (admins)' })
  @Returns(WorkspaceInvitation)
  @Refuses(403, 404, 409)
  resend(@Req() req: FastifyRequest, @Param('id') id: string, @Param('invitation_id') invitationId: string): Promise<WorkspaceInvitation> {
    return this.forward.send(InvitationOperations.resend, req, { params: { id, invitation_id: invitationId } });
  }

  @Post('workspace-invitations/accept')
  @RefusesWorkspaceTokens()
  @ApiOperation({ summary: 'Accept an invitation sent to the caller’s address; every refusal is 409 invitation_not_acceptable' })
  @Returns(InvitationAcceptance)
  @Refuses(400, 409, 413, 415, 422, 'invitation_not_acceptable')
  accept(
    @Req() req: FastifyRequest,
    @Body(new ValidBody(AcceptInvitationRequest)) body: AcceptInvitationRequest,
  ): Promise<InvitationAcceptance> {
    return this.forward.send(InvitationOperations.accept, req, { body });
  }
}
