import { Injectable } from '@nestjs/common';
import { WORKSPACE_ROLE_RANK, WorkspaceAccess, WorkspaceRecipients, WorkspaceRole } from '@social/contracts';
import { isUuid } from '@social/platform';
import { DataSource } from 'typeorm';

/**
 * Workspaces with user $1's effective role in each: their own membership,
 * raised to `admin` when they own or administer the workspace's organization;
 * `role` is null where they have neither. The one definition of that rule:
 * callers add their WHERE.
 */
export const WORKSPACES_WITH_ROLE_SQL = `
  SELECT w.id, w.name, w.organization_id, w.created_at,
         CASE WHEN om.role IN ('owner', 'admin') THEN 'admin' ELSE wm.role END AS role
    FROM workspaces w
    LEFT JOIN workspace_members wm ON wm.workspace_id = w.id AND wm.user_id = $1
    LEFT JOIN organization_members om ON om.organization_id = w.organization_id AND om.user_id = $1`;

@Injectable()
export class WorkspaceAccessLookup {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string, workspaceId: string): Promise<WorkspaceAccess> {
    const none: WorkspaceAccess = { workspace_id: workspaceId, workspace_name: '', organization_id: '', role: null };
    if (!isUuid(workspaceId) || !isUuid(userId)) return none;
    const [row] = (await this.dataSource.query(`${WORKSPACES_WITH_ROLE_SQL} WHERE w.id = $2`, [userId, workspaceId])) as Array<{
      id: string;
      name: string;
      organization_id: string;
      role: WorkspaceRole | null;
    }>;
    if (!row?.role) return none;
    return { workspace_id: row.id, workspace_name: row.name, organization_id: row.organization_id, role: row.role };
  }
}

/**
 * Everyone whose effective role in workspace $1 is known (the same rule as
 * WORKSPACES_WITH_ROLE_SQL, seen from the workspace): its members, and the
 * owners and admins of its organization as admins.
 */
const WORKSPACE_RECIPIENTS_SQL = `
  WITH ws AS (SELECT id, name, organization_id FROM workspaces WHERE id = $1),
       ids AS (SELECT wm.user_id FROM workspace_members wm WHERE wm.workspace_id = $1
               UNION
               SELECT om.user_id FROM organization_members om JOIN ws ON om.organization_id = ws.organization_id
                WHERE om.role IN ('owner', 'admin'))
  SELECT ws.name AS workspace_name, u.id AS user_id, u.email, u.email_verified,
         CASE WHEN om.role IN ('owner', 'admin') THEN 'admin' ELSE wm.role END AS role
    FROM ws JOIN ids ON true JOIN users u ON u.id = ids.user_id
    LEFT JOIN workspace_members wm ON wm.workspace_id = ws.id AND wm.user_id = u.id
    LEFT JOIN organization_members om ON om.organization_id = ws.organization_id AND om.user_id = u.id
   ORDER BY u.id`;

/** Who sees workspace `workspaceId` at `minRole` or above, with their addresses; nobody for an unknown workspace. */
export async function workspaceRecipients(
  dataSource: DataSource,
  workspaceId: string,
  minRole: WorkspaceRole,
): Promise<WorkspaceRecipients> {
  if (!isUuid(workspaceId) || !(minRole in WORKSPACE_ROLE_RANK)) return { workspace_name: '', recipients: [] };
  const rows = (await dataSource.query(WORKSPACE_RECIPIENTS_SQL, [workspaceId])) as Array<{
    workspace_name: string;
    user_id: string;
    email: string;
    email_verified: boolean;
    role: WorkspaceRole;
  }>;
  const [workspace] = rows.length
    ? rows
    : ((await dataSource.query('SELECT name AS workspace_name FROM workspaces WHERE id = $1', [workspaceId])) as Array<{
        workspace_name: string;
      }>);
  return {
    workspace_name: workspace?.workspace_name ?? '',
    recipients: rows
      .filter((row) => WORKSPACE_ROLE_RANK[row.role] >= WORKSPACE_ROLE_RANK[minRole])
      .map(({ user_id, email, email_verified, role }) => ({ user_id, email, email_verified, role })),
  };
}
