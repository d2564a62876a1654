import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateWorkspaceRequest,
  ListWorkspacesQuery,
  UpdateWorkspaceMemberRequest,
  UpdateWorkspaceRequest,
  Workspace,
  WorkspaceList,
  WorkspaceMember,
  WorkspaceMemberList,
  WorkspaceOperations,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefusesWorkspaceTokens } from '../auth/workspace-tokens.decorator.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Workspaces')
@ApiBearerAuth()
@Controller('workspaces')
export class WorkspacesController {
  constructor(private readonly forward: Forwarder) {}

  @Post()
  @RefusesWorkspaceTokens()
  @ApiOperation({ summary: 'Create a workspace in an organization (its owner or admins); the caller becomes its admin' })
  @Returns(Workspace, 201)
  @Refuses(400, 403, 409, 413, 415, 422)
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateWorkspaceRequest)) body: CreateWorkspaceRequest,
  ): Promise<Workspace> {
    const workspace = await this.forward.send(WorkspaceOperations.create, req, { body });
    reply.header('location', `/workspaces/${workspace.id}`);
    return workspace;
  }

  @Get()
  @ApiOperation({ summary: 'The workspaces the caller can see, with their effective role' })
  @Returns(WorkspaceList)
  @Refuses(403, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(ListWorkspacesQuery)) query: ListWorkspacesQuery): Promise<WorkspaceList> {
    return this.forward.send(WorkspaceOperations.list, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One workspace' })
  @Returns(Workspace)
  @Refuses(404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<Workspace> {
    return this.forward.send(WorkspaceOperations.get, req, { params: { id } });
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a workspace (workspace admins)' })
  @Returns(Workspace)
  @Refuses(400, 403, 404, 409, 413, 415, 422)
  update(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Body(new ValidBody(UpdateWorkspaceRequest)) body: UpdateWorkspaceRequest,
  ): Promise<Workspace> {
    return this.forward.send(WorkspaceOperations.update, req, { params: { id }, body });
  }

  @Get(':id/members')
  @ApiOperation({ summary: "The workspace's members (organization owners and admins act as admins without being listed)" })
  @Returns(WorkspaceMemberList)
  @Refuses(404)
  members(@Req() req: FastifyRequest, @Param('id') id: string): Promise<WorkspaceMemberList> {
    return this.forward.send(WorkspaceOperations.listMembers, req, { params: { id } });
  }

  @Patch(':id/members/:user_id')
  @ApiOperation({ summary: "Change a member's role (workspace admins)" })
  @Returns(WorkspaceMember)
  @Refuses(400, 403, 404, 413, 415, 422)
  updateMember(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Param('user_id') userId: string,
    @Body(new ValidBody(UpdateWorkspaceMemberRequest)) body: UpdateWorkspaceMemberRequest,
  ): Promise<WorkspaceMember> {
    return this.forward.send(WorkspaceOperations.updateMember, req, { params: { id, user_id: userId }, body });
  }

  @Delete(':id/members/:user_id')
  @ApiOperation({ summary: 'Remove a member (workspace admins) or leave the workspace' })
  @ReturnsNothing()
  @Refuses(403, 404)
  async removeMember(@Req() req: FastifyRequest, @Param('id') id: string, @Param('user_id') userId: string): Promise<void> {
    await this.forward.send(WorkspaceOperations.removeMember, req, { params: { id, user_id: userId } });
  }
}
