import { Controller } from '@nestjs/common';
import {
  OrganizationOperations,
  type InputOf,
  type Organization,
  type OrganizationList,
  type OrganizationMember,
  type OrganizationMemberList,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { OrganizationsService } from './organizations.service.js';

@Controller()
export class OrganizationsHandler {
  constructor(private readonly organizations: OrganizationsService) {}

  @Handles(OrganizationOperations.create)
  create(@Input() { principal, body }: InputOf<typeof OrganizationOperations.create>): Promise<Organization> {
    return this.organizations.create(principal.userId, body.name);
  }

  @Handles(OrganizationOperations.list)
  async list(@Input() { principal }: InputOf<typeof OrganizationOperations.list>): Promise<OrganizationList> {
    return { organizations: await this.organizations.list(principal.userId) };
  }

  @Handles(OrganizationOperations.get)
  get(@Input() { principal, params }: InputOf<typeof OrganizationOperations.get>): Promise<Organization> {
    return this.organizations.get(principal.userId, params.id);
  }

  @Handles(OrganizationOperations.listMembers)
  async members(@Input() { principal, params }: InputOf<typeof OrganizationOperations.listMembers>): Promise<OrganizationMemberList> {
    return { members: await this.organizations.members(principal.userId, params.id) };
  }

  @Handles(OrganizationOperations.updateMember)
  updateMember(@Input() { principal, params, body }: InputOf<typeof OrganizationOperations.updateMember>): Promise<OrganizationMember> {
    return this.organizations.updateMember(principal.userId, params.id, params.user_id, body.role);
  }

  @Handles(OrganizationOperations.removeMember)
  async removeMember(@Input() { principal, params }: InputOf<typeof OrganizationOperations.removeMember>): Promise<null> {
    await this.organizations.removeMember(principal.userId, params.id, params.user_id);
    return null;
  }
}
