import { Injectable } from '@nestjs/common';
import { WorkspaceAccess, WorkspaceRole } from '@social/contracts';
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
