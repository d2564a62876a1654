import { ACCOUNTS_SERVICE } from '../accounts/patterns.js';
import { INSIGHTS_SERVICE } from '../insights/patterns.js';
import { PUBLISHING_SERVICE } from '../publishing/patterns.js';
import { OrganizationOperations } from './organizations.operations.js';

/**
 * Organizations, workspaces, memberships and invitations live in the accounts service. These are its subjects for
 * other services; the operations the gateway forwards are declared in `*.operations.ts`.
 */
export const TenancyPatterns = {
  /** An HTTP operation (`OrganizationOperations.get`) that creative also asks, for the caller's role in an organization. */
  getOrganization: OrganizationOperations.get.subject,
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
