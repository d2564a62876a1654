import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  TenancyPatterns,
  WorkspaceOperations,
  type InputOf,
  type ResolveWorkspaceAccessRequest,
  type Workspace,
  type WorkspaceAccess,
  type WorkspaceList,
  type WorkspaceMember,
  type WorkspaceMemberList,
  type WorkspaceRecipients,
  type WorkspaceRecipientsRequest,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { DataSource } from 'typeorm';
import { WorkspaceAccessLookup, workspaceRecipients } from './workspace-access.lookup.js';
import { WorkspacesService } from './workspaces.service.js';

@Controller()
export class WorkspacesHandler {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly lookup: WorkspaceAccessLookup,
    private readonly dataSource: DataSource,
  ) {}

  @Handles(WorkspaceOperations.create)
  create(@Input() { principal, body }: InputOf<typeof WorkspaceOperations.create>): Promise<Workspace> {
    return this.workspaces.create(principal.userId, body);
  }

  @Handles(WorkspaceOperations.list)
  async list(@Input() { principal, query }: InputOf<typeof WorkspaceOperations.list>): Promise<WorkspaceList> {
    return { workspaces: await this.workspaces.list(principal, query.organization_id) };
  }

  @Handles(WorkspaceOperations.get)
  get(@Input() { principal, params }: InputOf<typeof WorkspaceOperations.get>): Promise<Workspace> {
    return this.workspaces.get(principal, params.id);
  }

  @Handles(WorkspaceOperations.update)
  update(@Input() { principal, params, body }: InputOf<typeof WorkspaceOperations.update>): Promise<Workspace> {
    return this.workspaces.rename(principal, params.id, body.name);
  }

  @Handles(WorkspaceOperations.listMembers)
  async members(@Input() { principal, params }: InputOf<typeof WorkspaceOperations.listMembers>): Promise<WorkspaceMemberList> {
    return { members: await this.workspaces.members(principal, params.id) };
  }

  @Handles(WorkspaceOperations.updateMember)
  updateMember(@Input() { principal, params, body }: InputOf<typeof WorkspaceOperations.updateMember>): Promise<WorkspaceMember> {
    return this.workspaces.updateMember(principal, params.id, params.user_id, body.role);
  }

  @Handles(WorkspaceOperations.removeMember)
  async removeMember(@Input() { principal, params }: InputOf<typeof WorkspaceOperations.removeMember>): Promise<null> {
    await this.workspaces.removeMember(principal, params.id, params.user_id);
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
