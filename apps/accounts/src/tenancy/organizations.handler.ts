import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateOrganizationRequest,
  Organization,
  OrganizationList,
  OrganizationMember,
  OrganizationMemberList,
  RpcRequest,
  TenancyPatterns,
  UpdateOrganizationMemberRequest,
} from '@social/contracts';
import { requireAccountPrincipal, validateInput } from '@social/platform';
import { OrganizationsService } from './organizations.service.js';

type Path = { id: string; user_id?: string };

@Controller()
export class OrganizationsHandler {
  constructor(private readonly organizations: OrganizationsService) {}

  @MessagePattern(TenancyPatterns.createOrganization)
  create(@Payload() req: RpcRequest<CreateOrganizationRequest>): Promise<Organization> {
    const principal = requireAccountPrincipal(req);
    const input = validateInput(CreateOrganizationRequest, req.body, 'body');
    return this.organizations.create(principal.userId, input.name);
  }

  @MessagePattern(TenancyPatterns.listOrganizations)
  async list(@Payload() req: RpcRequest): Promise<OrganizationList> {
    return { organizations: await this.organizations.list(requireAccountPrincipal(req).userId) };
  }

  @MessagePattern(TenancyPatterns.getOrganization)
  get(@Payload() req: RpcRequest<unknown, unknown, Path>): Promise<Organization> {
    return this.organizations.get(requireAccountPrincipal(req).userId, req.params.id);
  }

  @MessagePattern(TenancyPatterns.listOrganizationMembers)
  async members(@Payload() req: RpcRequest<unknown, unknown, Path>): Promise<OrganizationMemberList> {
    return { members: await this.organizations.members(requireAccountPrincipal(req).userId, req.params.id) };
  }

  @MessagePattern(TenancyPatterns.updateOrganizationMember)
  updateMember(@Payload() req: RpcRequest<UpdateOrganizationMemberRequest, unknown, Path>): Promise<OrganizationMember> {
    const principal = requireAccountPrincipal(req);
    const input = validateInput(UpdateOrganizationMemberRequest, req.body, 'body');
    return this.organizations.updateMember(principal.userId, req.params.id, req.params.user_id ?? '', input.role);
  }

  @MessagePattern(TenancyPatterns.removeOrganizationMember)
  async removeMember(@Payload() req: RpcRequest<unknown, unknown, Path>): Promise<null> {
    await this.organizations.removeMember(requireAccountPrincipal(req).userId, req.params.id, req.params.user_id ?? '');
    return null;
  }
}
