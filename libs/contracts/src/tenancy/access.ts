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

export interface PendingWorkRequest {
  workspace_ids: string[];
}

export interface PendingWorkReply {
  pending_jobs: number;
  pending_cleanup_jobs: number;
  pending_provider_writes: number;
}
