import { Injectable } from '@nestjs/common';
import { CreateWorkspaceRequest, Principal, Workspace, WorkspaceMember, WorkspaceRole } from '@social/contracts';
import {
  AccessControl,
  changedCount,
  changedRows,
  explainingConstraint,
  GrantedWorkspaceAccess,
  pathId,
  Problem,
  problems,
} from '@social/platform';
import { v7 as uuidv7 } from 'uuid';
import { DataSource } from 'typeorm';
import { enqueueRoleChanged } from '../users/security-events.js';
import { MembershipEvents } from './membership-events.js';
import { OrganizationsService, toMember, type MemberRow } from './organizations.service.js';
import { WORKSPACES_WITH_ROLE_SQL } from './workspace-access.lookup.js';

interface WorkspaceRow {
  id: string;
  organization_id: string;
  name: string;
  role: WorkspaceRole;
  created_at: Date;
}

const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  organization_id: row.organization_id,
  name: row.name,
  role: row.role,
  created_at: row.created_at.toISOString(),
});

/** Every workspace a user can see (organization owners and admins see all of theirs, as admins). */
const VISIBLE_WORKSPACES_SQL = `${WORKSPACES_WITH_ROLE_SQL}
   WHERE (wm.user_id IS NOT NULL OR om.role IN ('owner', 'admin'))
     AND ($2::uuid IS NULL OR w.organization_id = $2)
     AND ($3::uuid IS NULL OR w.id = $3)
   ORDER BY w.created_at, w.id`;

/** Lists of workspaces are answered whole (docs/decisions.md): keep each organization's small. */
export const MAX_WORKSPACES_PER_ORGANIZATION = 100;

@Injectable()
export class WorkspacesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly organizations: OrganizationsService,
    private readonly events: MembershipEvents,
  ) {}

  /** Organization owners and admins create workspaces and become their first admin. */
  async create(userId: string, input: CreateWorkspaceRequest): Promise<Workspace> {
    const organization = await this.namedOrganization(userId, input.organization_id);
    if (organization.role === 'member') {
      throw problems.forbidden('insufficient_role', 'Only organization owners and admins can create workspaces.');
    }
    const row: WorkspaceRow = { id: uuidv7(), organization_id: organization.id, name: input.name, role: 'admin', created_at: new Date() };
    await explainingConstraint(
      () =>
        this.dataSource.transaction(async (db) => {
          // Serializes creations in one organization (and with its deletion, which locks the same row).
          const locked = (await db.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [row.organization_id])) as unknown[];
          if (!locked.length) throw problems.forbidden('organization_forbidden', 'You are not a member of this organization.');
          const [{ count }] = (await db.query('SELECT count(*)::int AS count FROM workspaces WHERE organization_id = $1', [
            row.organization_id,
          ])) as Array<{ count: number }>;
          if (count >= MAX_WORKSPACES_PER_ORGANIZATION) {
            throw problems.conflict(
              'too_many_workspaces',
              `An organization may have at most ${MAX_WORKSPACES_PER_ORGANIZATION} workspaces.`,
            );
          }
          await db.query('INSERT INTO workspaces (id, organization_id, name, created_at) VALUES ($1, $2, $3, $4)', [
            row.id,
            row.organization_id,
            row.name,
            row.created_at,
          ]);
          await db.query(`INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, 'admin', $3)`, [
            row.id,
            userId,
            row.created_at,
          ]);
        }),
      NAME_INDEX,
      nameTaken,
    );
    this.events.changed([userId]);
    return toWorkspace(row);
  }

  async list(principal: Principal, organizationId: string | undefined): Promise<Workspace[]> {
    if (organizationId) await this.namedOrganization(principal.userId, organizationId);
    const rows = (await this.dataSource.query(VISIBLE_WORKSPACES_SQL, [
      principal.userId,
      organizationId ?? null,
      principal.workspaceId,
    ])) as WorkspaceRow[];
    return rows.map(toWorkspace);
  }

  async get(principal: Principal, workspaceId: string): Promise<Workspace> {
    const access = await this.access.requireWorkspace(principal, pathId(workspaceId), 'viewer', 'path');
    return this.read(access);
  }

  async rename(principal: Principal, workspaceId: string, name: string): Promise<Workspace> {
    const access = await this.access.requireWorkspace(principal, pathId(workspaceId), 'admin', 'path');
    await explainingConstraint(
      () => this.dataSource.query('UPDATE workspaces SET name = $2 WHERE id = $1', [access.workspace_id, name]),
      NAME_INDEX,
      nameTaken,
    );
    // No membership changed; cached names elsewhere catch up within seconds.
    return this.read({ ...access, workspace_name: name });
  }

  async members(principal: Principal, workspaceId: string): Promise<WorkspaceMember[]> {
    const access = await this.access.requireWorkspace(principal, pathId(workspaceId), 'viewer', 'path');
    const rows = (await this.dataSource.query(
      `SELECT m.user_id, u.email, u.display_name, m.role, m.joined_at
         FROM workspace_members m JOIN users u ON u.id = m.user_id
        WHERE m.workspace_id = $1 ORDER BY m.joined_at, m.user_id`,
      [access.workspace_id],
    )) as MemberRow[];
    return rows.map(toMember);
  }

  async updateMember(principal: Principal, workspaceId: string, rawMemberId: string, role: string): Promise<WorkspaceMember> {
    const access = await this.access.requireWorkspace(principal, pathId(workspaceId), 'admin', 'path');
    const memberId = pathId(rawMemberId, 'No such member.');
    const rows = await this.dataSource.transaction(async (db) => {
      // The CTE reads the row as it was before the update: the previous role, for the role-changed event.
      const updated = await changedRows<MemberRow & { previous_role: WorkspaceRole }>(
        db,
        `WITH before AS (SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2 FOR UPDATE)
         UPDATE workspace_members m SET role = $3 FROM users u, before b
          WHERE m.workspace_id = $1 AND m.user_id = $2 AND u.id = m.user_id
      RETURNING m.user_id, u.email, u.display_name, m.role, m.joined_at, b.role AS previous_role`,
        [access.workspace_id, memberId, role],
      );
      if (updated.length && updated[0].previous_role !== role) {
        await enqueueRoleChanged(db, {
          workspace_id: access.workspace_id,
          name: access.workspace_name,
          user_id: memberId,
          role,
          previous_role: updated[0].previous_role,
          changed_by_user_id: principal.userId,
        });
      }
      return updated;
    });
    if (!rows.length) throw problems.notFound('No such member.');
    this.events.changed([memberId]);
    return toMember(rows[0]);
  }

  /** Admins remove members; anyone may leave. */
  async removeMember(principal: Principal, workspaceId: string, rawMemberId: string): Promise<void> {
    // Lower-cased, so a member addressing themself in upper case is still leaving, and caches drop the right user.
    const memberId = pathId(rawMemberId, 'No such member.');
    const leaving = memberId === principal.userId;
    const access = await this.access.requireWorkspace(principal, pathId(workspaceId), leaving ? 'viewer' : 'admin', 'path');
    const removed = await changedCount(this.dataSource, 'DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2', [
      access.workspace_id,
      memberId,
    ]);
    if (!removed) throw problems.notFound('No such member.');
    this.events.changed([memberId]);
  }

  /** An organization named in a body or query that the caller is not in is 403, whether or not it exists (docs/decisions.md). */
  private namedOrganization(userId: string, organizationId: string) {
    return this.organizations.membership(userId, organizationId).catch((error: unknown) => {
      if (error instanceof Problem && error.status === 404) {
        throw problems.forbidden('organization_forbidden', 'You are not a member of this organization.');
      }
      throw error;
    });
  }

  private async read(access: GrantedWorkspaceAccess): Promise<Workspace> {
    const [row] = (await this.dataSource.query('SELECT id, organization_id, name, created_at FROM workspaces WHERE id = $1', [
      access.workspace_id,
    ])) as WorkspaceRow[];
    if (!row) throw problems.notFound();
    return toWorkspace({ ...row, role: access.role });
  }
}

const NAME_INDEX = 'workspaces_name_per_organization';
const nameTaken = () => problems.conflict('workspace_name_taken', 'This organization already has a workspace with that name.');
