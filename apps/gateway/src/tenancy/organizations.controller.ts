import { Body, Controller, Delete, Get, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateOrganizationRequest,
  Organization,
  OrganizationDeletion,
  OrganizationDeletionPreview,
  OrganizationList,
  OrganizationMember,
  OrganizationMemberList,
  OrganizationOperations,
  UpdateOrganizationMemberRequest,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Organizations')
@ApiBearerAuth()
@RefusesWorkspaceTokens()
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @ApiOperation({ summary: 'Create an organization; the caller becomes its owner' })
  @Returns(Organization, 201)
  @Refuses(400, 403, 413, 415, 422)
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateOrganizationRequest)) body: CreateOrganizationRequest,
  ): Promise<Organization> {
    const organization = await this.forward.send(OrganizationOperations.create, req, { body });
    reply.header('location', `/organizations/${organization.id}`);
    return organization;
  }

  @Get()
  @ApiOperation({ summary: 'The organizations the caller belongs to, with their role' })
  @Returns(OrganizationList)
  @Refuses(403)
  list(@Req() req: FastifyRequest): Promise<OrganizationList> {
    return this.forward.send(OrganizationOperations.list, req);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One organization the caller belongs to' })
  @Returns(Organization)
  @Refuses(403, 404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<Organization> {
    return this.forward.send(OrganizationOperations.get, req, { params: { id } });
  }

  @Get(':id/deletion-preview')
  @ApiOperation({ summary: 'What deleting the organization would do (owner only); pending work counted live' })
  @Returns(OrganizationDeletionPreview)
  @Refuses(403, 404)
  preview(@Req() req: FastifyRequest, @Param('id') id: string): Promise<OrganizationDeletionPreview> {
    return this.forward.send(OrganizationOperations.previewDeletion, req, { params: { id } });
  }

  @Delete(':id')
  @ApiOperation({
    summary:
      'Delete the organization and all its workspaces (owner only); ' +
      'refused with 409 deletion_blocked while the deletion preview shows blockers',
  })
  @Returns(OrganizationDeletion, 202)
  @Refuses(403, 404, 409, 'deletion_blocked')
  remove(@Req() req: FastifyRequest, @Param('id') id: string): Promise<OrganizationDeletion> {
    return this.forward.send(OrganizationOperations.delete, req, { params: { id } });
  }

  @Get(':id/members')
  @ApiOperation({ summary: "The organization's members" })
  @Returns(OrganizationMemberList)
  @Refuses(403, 404)
  members(@Req() req: FastifyRequest, @Param('id') id: string): Promise<OrganizationMemberList> {
    return this.forward.send(OrganizationOperations.listMembers, req, { params: { id } });
  }

  @Patch(':id/members/:user_id')
  @ApiOperation({ summary: "Change a member's role (owner only; admin or member)" })
  @Returns(OrganizationMember)
  @Refuses(400, 403, 404, 409, 413, 415, 422)
  updateMember(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Param('user_id') userId: string,
    @Body(new ValidBody(UpdateOrganizationMemberRequest)) body: UpdateOrganizationMemberRequest,
  ): Promise<OrganizationMember> {
    return this.forward.send(OrganizationOperations.updateMember, req, { params: { id, user_id: userId }, body });
  }

  @Delete(':id/members/:user_id')
  @ApiOperation({ summary: 'Remove a member (owner: anyone but themself; admin: plain members) or leave; also leaves its workspaces' })
  @ReturnsNothing()
  @Refuses(403, 404, 409)
  async removeMember(@Req() req: FastifyRequest, @Param('id') id: string, @Param('user_id') userId: string): Promise<void> {
    await this.forward.send(OrganizationOperations.removeMember, req, { params: { id, user_id: userId } });
  }
}
