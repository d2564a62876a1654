import { Injectable } from '@nestjs/common';
import { WorkspaceAccess, WorkspaceRole } from '@social/contracts';
import { isUuid } from '@social/platform';
import { DataSource } from 'typeorm';

/**
 * A user's effective role in a workspace: their own membership, raised to
 * `admin` when they own or administer the workspace's organization.
 */
const WORKSPACE_ACCESS_SQL = `
  SELECT w.id, w.name, w.organization_id,
         CASE WHEN om.role IN ('owner', 'admin') THEN 'admin' ELSE wm.role END AS role
    FROM workspaces w
    LEFT JOIN workspace_members wm ON wm.workspace_id = w.id AND wm.user_id = $2
    LEFT JOIN organization_members om ON om.organization_id = w.organization_id AND om.user_id = $2
   WHERE w.id = $1`;

@Injectable()
export class WorkspaceAccessLookup {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string, workspaceId: string): Promise<WorkspaceAccess> {
    const none: WorkspaceAccess = { workspace_id: workspaceId, workspace_name: '', organization_id: '', role: null };
    if (!isUuid(workspaceId) || !isUuid(userId)) return none;
    const [row] = (await this.dataSource.query(WORKSPACE_ACCESS_SQL, [workspaceId, userId])) as Array<{
      id: string;
      name: string;
      organization_id: string;
      role: WorkspaceRole | null;
    }>;
    if (!row?.role) return none;
    return { workspace_id: row.id, workspace_name: row.name, organization_id: row.organization_id, role: row.role };
  }
}
