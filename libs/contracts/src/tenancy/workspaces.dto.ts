import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { Optional } from '../common/optional.js';
import { WORKSPACE_ROLES } from './access.js';

const ROLE_MESSAGE = `$property must be one of: ${WORKSPACE_ROLES.join(', ')}`;

export class CreateWorkspaceRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: '$property must be a UUID' })
  organization_id: string;

  @ApiProperty({ minLength: 1, maxLength: 120 })
  @IsString()
  @Length(1, 120)
  name: string;
}

export class UpdateWorkspaceRequest {
  @ApiProperty({ minLength: 1, maxLength: 120 })
  @IsString()
  @Length(1, 120)
  name: string;
}

export class ListWorkspacesQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "only this organization's workspaces" })
  @Optional()
  @IsUUID('all', { message: '$property must be a UUID' })
  organization_id?: string;
}

export class Workspace {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) organization_id: string;
  @ApiProperty() name: string;
  @ApiProperty({
    enum: WORKSPACE_ROLES,
    description: "the caller's effective role (organization owners and admins act as workspace admins)",
  })
  role: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class WorkspaceList {
  @ApiProperty({ type: [Workspace] }) workspaces: Workspace[];
}

export class WorkspaceMember {
  @ApiProperty({ format: 'uuid' }) user_id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty() display_name: string;
  @ApiProperty({ enum: WORKSPACE_ROLES }) role: string;
  @ApiProperty({ format: 'date-time' }) joined_at: string;
}

export class WorkspaceMemberList {
  @ApiProperty({ type: [WorkspaceMember] }) members: WorkspaceMember[];
}

export class UpdateWorkspaceMemberRequest {
  @ApiProperty({ enum: WORKSPACE_ROLES })
  @IsIn(WORKSPACE_ROLES, { message: ROLE_MESSAGE })
  role: string;
}

export class CreateInvitationRequest {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail({}, { message: '$property must be an email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ enum: WORKSPACE_ROLES })
  @IsIn(WORKSPACE_ROLES, { message: ROLE_MESSAGE })
  role: string;
}

export const INVITATION_STATUSES = ['created', 'sent', 'delivery_failed', 'expired', 'revoked', 'accepted'] as const;
export const EMAIL_DELIVERY_STATUSES = ['created', 'queued', 'sent', 'failed', 'unavailable'] as const;

export class WorkspaceInvitation {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ enum: WORKSPACE_ROLES }) role: string;
  @ApiProperty({ enum: INVITATION_STATUSES }) status: string;
  @ApiProperty({ description: 'the link with the secret: only in the answers to create and resend, else ""' }) accept_url: string;
  @ApiProperty({ format: 'uuid' }) invited_by_user_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) expires_at: string;
  @ApiProperty({ format: 'date-time' }) last_sent_at: string;
  @ApiProperty({ enum: EMAIL_DELIVERY_STATUSES }) email_delivery_status: string;
  @ApiProperty({ description: 'RFC 3339' }) email_delivery_updated_at: string;
  @ApiProperty({ description: 'RFC 3339, "" unless accepted' }) accepted_at: string;
  @ApiProperty({ description: '"" unless accepted' }) accepted_by_user_id: string;
  @ApiProperty({ description: 'RFC 3339, "" unless revoked' }) revoked_at: string;
}

export class WorkspaceInvitationList {
  @ApiProperty({ type: [WorkspaceInvitation] }) invitations: WorkspaceInvitation[];
}

export class AcceptInvitationRequest {
  @ApiProperty({ description: 'the secret from the invitation link' })
  @IsString()
  @Length(1, 200)
  token: string;
}

export class InvitationAcceptance {
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty({ enum: WORKSPACE_ROLES }) role: string;
  @ApiProperty() accepted: boolean;
}
