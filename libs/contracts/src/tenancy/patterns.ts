import { ACCOUNTS_SERVICE } from '../accounts/patterns.js';
import { INSIGHTS_SERVICE } from '../insights/patterns.js';
import { PUBLISHING_SERVICE } from '../publishing/patterns.js';

/** Organizations, workspaces, memberships and invitations live in the accounts service. */
export const TenancyPatterns = {
  createOrganization: 'accounts.organizations.create',
  listOrganizations: 'accounts.organizations.list',
  getOrganization: 'accounts.organizations.get',
  deleteOrganization: 'accounts.organizations.delete',
  previewOrganizationDeletion: 'accounts.organizations.previewDeletion',
  listOrganizationMembers: 'accounts.organizationMembers.list',
  updateOrganizationMember: 'accounts.organizationMembers.update',
  removeOrganizationMember: 'accounts.organizationMembers.remove',
  createWorkspace: 'accounts.workspaces.create',
  listWorkspaces: 'accounts.workspaces.list',
  getWorkspace: 'accounts.workspaces.get',
  updateWorkspace: 'accounts.workspaces.update',
  listWorkspaceMembers: 'accounts.workspaceMembers.list',
  updateWorkspaceMember: 'accounts.workspaceMembers.update',
  removeWorkspaceMember: 'accounts.workspaceMembers.remove',
  createInvitation: 'accounts.invitations.create',
  listInvitations: 'accounts.invitations.list',
  getInvitation: 'accounts.invitations.get',
  revokeInvitation: 'accounts.invitations.revoke',
  resendInvitation: 'accounts.invitations.resend',
  acceptInvitation: 'accounts.invitations.accept',
  /** Service to service: a user's effective role in a workspace (the access helper asks this). */
  resolveWorkspaceAccess: 'accounts.access.workspace',
  /** Service to service: who may see a workspace at `min_role` or above, with their addresses (notifications' recipients). */
  workspaceRecipients: 'accounts.tenancy.workspace-recipients',
} as const;

/**
 * Every service that owns work tied to workspaces answers this with its
 * counts, so the deletion preview (E10) can tell what deleting would cut short.
 */
export const pendingWorkPattern = (service: string): string => `${service}.tenancy.pendingWork`;

/** Core NATS: a membership or role changed; every access cache drops what it knew about these users. */
export const MEMBERSHIP_CHANGED_SUBJECT = 'events.tenancy.membership-changed';

/** Durable (outbox → JetStream): an organization and its workspaces are gone; each service purges its data for them. */
export const ORGANIZATION_DELETED_SUBJECT = 'durable.tenancy.organization-deleted';

/**
 * Durable (outbox → JetStream): a member's role in a workspace or an
 * organization changed (`workspace_id` or `organization_id` is set, never both).
 */
export const ROLE_CHANGED_SUBJECT = 'durable.tenancy.role-changed';

/**
 * The services that own work tied to workspaces and answer `pendingWorkPattern`.
 * Accounts reports its undelivered purge events; publishing its scheduled
 * publications and the writes to social networks in flight; insights its
 * queued sync jobs and the follows being sent.
 */
export const PENDING_WORK_SERVICES = [ACCOUNTS_SERVICE, PUBLISHING_SERVICE, INSIGHTS_SERVICE] as const;
