import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateWorkspaceRequest,
  ListWorkspacesQuery,
  ResolveWorkspaceAccessRequest,
  RpcRequest,
  TenancyPatterns,
  UpdateWorkspaceMemberRequest,
  UpdateWorkspaceRequest,
  Workspace,
  WorkspaceAccess,
  WorkspaceList,
  WorkspaceMember,
  WorkspaceMemberList,
} from '@social/contracts';
import type { WorkspaceRecipients, WorkspaceRecipientsRequest } from '@social/contracts';
import { requireAccountPrincipal, requirePrincipal, validateInput } from '@social/platform';
import { DataSource } from 'typeorm';
import { WorkspaceAccessLookup, workspaceRecipients } from './workspace-access.lookup.js';
import { WorkspacesService } from './workspaces.service.js';

type Path = { id: string; user_id?: string };

@Controller()
export class WorkspacesHandler {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly lookup: WorkspaceAccessLookup,
    private readonly dataSource: DataSource,
  ) {}

  @MessagePattern(TenancyPatterns.createWorkspace)
  create(@Payload() req: RpcRequest<CreateWorkspaceRequest>): Promise<Workspace> {
    const principal = requireAccountPrincipal(req);
    return this.workspaces.create(principal.userId, validateInput(CreateWorkspaceRequest, req.body, 'body'));
  }

  @MessagePattern(TenancyPatterns.listWorkspaces)
  async list(@Payload() req: RpcRequest<unknown, ListWorkspacesQuery>): Promise<WorkspaceList> {
    const query = validateInput(ListWorkspacesQuery, req.query, 'query');
    return { workspaces: await this.workspaces.list(requirePrincipal(req), query.organization_id) };
  }

  @MessagePattern(TenancyPatterns.getWorkspace)
  get(@Payload() req: RpcRequest<unknown, unknown, Path>): Promise<Workspace> {
    return this.workspaces.get(requirePrincipal(req), req.params.id);
  }

  @MessagePattern(TenancyPatterns.updateWorkspace)
  update(@Payload() req: RpcRequest<UpdateWorkspaceRequest, unknown, Path>): Promise<Workspace> {
    const principal = requirePrincipal(req);
    const input = validateInput(UpdateWorkspaceRequest, req.body, 'body');
    return this.workspaces.rename(principal, req.params.id, input.name);
  }

  @MessagePattern(TenancyPatterns.listWorkspaceMembers)
  async members(@Payload() req: RpcRequest<unknown, unknown, Path>): Promise<WorkspaceMemberList> {
    return { members: await this.workspaces.members(requirePrincipal(req), req.params.id) };
  }

  @MessagePattern(TenancyPatterns.updateWorkspaceMember)
  updateMember(@Payload() req: RpcRequest<UpdateWorkspaceMemberRequest, unknown, Path>): Promise<WorkspaceMember> {
    const principal = requirePrincipal(req);
    const input = validateInput(UpdateWorkspaceMemberRequest, req.body, 'body');
    return this.workspaces.updateMember(principal, req.params.id, req.params.user_id ?? '', input.role);
  }

  @MessagePattern(TenancyPatterns.removeWorkspaceMember)
  async removeMember(@Payload() req: RpcRequest<unknown, unknown, Path>): Promise<null> {
    await this.workspaces.removeMember(requirePrincipal(req), req.params.id, req.params.user_id ?? '');
    return null;
  }

  /** Service to service: the access helper of every other service asks this (and caches the answer briefly). */
  @MessagePattern(TenancyPatterns.resolveWorkspaceAccess)
  resolve(@Payload() request: ResolveWorkspaceAccessRequest): Promise<WorkspaceAccess> {
    return this.lookup.find(request.user_id, request.workspace_id);
  }

  /** Service to service: notifications asks who receives a workspace's messages (memberships stay here). */
  @MessagePattern(TenancyPatterns.workspaceRecipients)
  recipients(@Payload() request: WorkspaceRecipientsRequest): Promise<WorkspaceRecipients> {
    return workspaceRecipients(this.dataSource, request?.workspace_id, request?.min_role);
  }
}
