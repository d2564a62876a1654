import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length } from 'class-validator';
import { ASSIGNABLE_ORGANIZATION_ROLES, ORGANIZATION_ROLES } from './access.js';

export class CreateOrganizationRequest {
  @ApiProperty({ minLength: 1, maxLength: 120 })
  @IsString()
  @Length(1, 120)
  name: string;
}

export class Organization {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ORGANIZATION_ROLES, description: "the caller's role" }) role: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class OrganizationList {
  @ApiProperty({ type: [Organization] }) organizations: Organization[];
}

export class OrganizationMember {
  @ApiProperty({ format: 'uuid' }) user_id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty() display_name: string;
  @ApiProperty({ enum: ORGANIZATION_ROLES }) role: string;
  @ApiProperty({ format: 'date-time' }) joined_at: string;
}

export class OrganizationMemberList {
  @ApiProperty({ type: [OrganizationMember] }) members: OrganizationMember[];
}

export class UpdateOrganizationMemberRequest {
  @ApiProperty({ enum: ASSIGNABLE_ORGANIZATION_ROLES, description: 'ownership cannot be given through a role change' })
  @IsIn(ASSIGNABLE_ORGANIZATION_ROLES, { message: `$property must be one of: ${ASSIGNABLE_ORGANIZATION_ROLES.join(', ')}` })
  role: string;
}

class DeletionBlocker {
  @ApiProperty({ example: 'pending_external_writes' }) code: string;
  @ApiProperty() message: string;
}

class PendingWork {
  @ApiProperty() pending_jobs: number;
  @ApiProperty() pending_cleanup_jobs: number;
  @ApiProperty() pending_provider_writes: number;
}

class DeletionPreviewWorkspace {
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty() workspace_name: string;
}

export class OrganizationDeletionPreview {
  @ApiProperty({ format: 'uuid' }) organization_id: string;
  @ApiProperty() organization_name: string;
  @ApiProperty({ type: [DeletionPreviewWorkspace] }) workspaces: DeletionPreviewWorkspace[];
  @ApiProperty({ description: 'no billing provider is wired: always "none"' }) billing_state: string;
  @ApiProperty({ type: PendingWork, description: 'counted live from the services that own the work' }) pending_work: PendingWork;
  @ApiProperty({ type: [String] }) access_effects: string[];
  @ApiProperty({ type: [String] }) retained: string[];
  @ApiProperty({ type: [String] }) irreversible_loss: string[];
  @ApiProperty({ type: [DeletionBlocker], description: 'deletion is refused (409) while any is present' }) blockers: DeletionBlocker[];
  @ApiProperty() recovery_possible: boolean;
}

export class OrganizationDeletion {
  @ApiProperty({ format: 'uuid' }) organization_id: string;
  @ApiProperty({ type: [String], description: 'the workspaces every service now purges' }) workspace_ids: string[];
  @ApiProperty({ format: 'date-time' }) deleted_at: string;
}
