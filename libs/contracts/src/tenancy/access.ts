export const ORGANIZATION_ROLES = ['owner', 'admin', 'member'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];
/** Roles that can be given to someone; ownership is never transferred through a role change. */
export const ASSIGNABLE_ORGANIZATION_ROLES = ['admin', 'member'] as const;

export const WORKSPACE_ROLES = ['admin', 'editor', 'viewer'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** viewer < editor < admin: a role allows everything a lower one does. */
export const WORKSPACE_ROLE_RANK: Record<WorkspaceRole, number> = { viewer: 1, editor: 2, admin: 3 };

export interface ResolveWorkspaceAccessRequest {
  user_id: string;
  workspace_id: string;
}

/** `role` is null when the user may not see the workspace, or it does not exist: the same answer. */
export interface WorkspaceAccess {
  workspace_id: string;
  workspace_name: string;
  organization_id: string;
  role: WorkspaceRole | null;
}

export interface MembershipChangedEvent {
  /** Users whose access changed; empty with `all: true` when a whole workspace or organization went away. */
  user_ids: string[];
  all?: boolean;
}

export interface OrganizationDeletedEvent {
  organization_id: string;
  workspace_ids: string[];
  deleted_at: string;
}

/** Payload of ROLE_CHANGED_SUBJECT. */
export interface RoleChangedEvent {
  /** uuid; the idempotency key of what consumers make from it. */
  event_id: string;
  workspace_id?: string;
  organization_id?: string;
  /** The workspace's or organization's name, for display. */
  name: string;
  user_id: string;
  role: string;
  previous_role: string;
  changed_by_user_id: string;
  /** RFC 3339 UTC with milliseconds. */
  occurred_at: string;
}

/** Payload of `TenancyPatterns.workspaceRecipients` (service to service). */
export interface WorkspaceRecipientsRequest {
  workspace_id: string;
  min_role: WorkspaceRole;
}

export interface WorkspaceRecipient {
  user_id: string;
  /** "" when unknown. */
  email: string;
  email_verified: boolean;
  role: WorkspaceRole;
}

export interface WorkspaceRecipients {
  /** "" when the workspace does not exist (then `recipients` is empty). */
  workspace_name: string;
  recipients: WorkspaceRecipient[];
}

export interface PendingWorkRequest {
  workspace_ids: string[];
}

export interface PendingWorkReply {
  pending_jobs: number;
  pending_cleanup_jobs: number;
  pending_provider_writes: number;
}
