import { Injectable } from '@nestjs/common';
import { Organization, OrganizationMember, OrganizationRole, WorkspaceMember } from '@social/contracts';
import { changedRows, pathId, problems } from '@social/platform';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, EntityManager } from 'typeorm';
import { enqueueRoleChanged } from '../users/security-events.js';
import { MembershipEvents } from './membership-events.js';

export interface OrganizationRow {
  id: string;
  name: string;
  role: OrganizationRole;
  created_at: Date;
}

export interface MemberRow {
  user_id: string;
  email: string;
  display_name: string;
  role: string;
  joined_at: Date;
}

/** Lists of organizations and workspaces are answered whole (docs/decisions.md): keep them small. */
export const MAX_OWNED_ORGANIZATIONS = 50;

export const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  role: row.role,
  created_at: row.created_at.toISOString(),
});

export const toMember = (row: MemberRow): OrganizationMember & WorkspaceMember => ({
  user_id: row.user_id,
  email: row.email,
  display_name: row.display_name,
  role: row.role,
  joined_at: row.joined_at.toISOString(),
});

const ORGANIZATION_OF_MEMBER_SQL = `
  SELECT o.id, o.name, o.created_at, m.role
    FROM organization_members m JOIN organizations o ON o.id = m.organization_id
   WHERE m.organization_id = $1 AND m.user_id = $2`;

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: MembershipEvents,
  ) {}

  async create(userId: string, name: string): Promise<Organization> {
    const id = uuidv7();
    const now = new Date();
    await this.dataSource.transaction(async (db) => {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`organizations-owned:${userId}`]);
      const [{ owned }] = (await db.query(`SELECT count(*)::int AS owned FROM organization_members WHERE user_id = $1 AND role = 'owner'`, [
        userId,
      ])) as Array<{ owned: number }>;
      if (owned >= MAX_OWNED_ORGANIZATIONS) {
        throw problems.conflict('too_many_organizations', `A user may own at most ${MAX_OWNED_ORGANIZATIONS} organizations.`);
      }
      await db.query('INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3)', [id, name, now]);
      await db.query(`INSERT INTO organization_members (organization_id, user_id, role, joined_at) VALUES ($1, $2, 'owner', $3)`, [
        id,
        userId,
        now,
      ]);
    });
    this.events.changed([userId]);
    return toOrganization({ id, name, role: 'owner', created_at: now });
  }

  async list(userId: string): Promise<Organization[]> {
    const rows = (await this.dataSource.query(
      `SELECT o.id, o.name, o.created_at, m.role
         FROM organization_members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = $1 ORDER BY o.created_at, o.id`,
      [userId],
    )) as OrganizationRow[];
    return rows.map(toOrganization);
  }

  /** The organization as its member sees it; not a member (or no such organization) is 404. */
  async membership(userId: string, organizationId: string, db: EntityManager = this.dataSource.manager): Promise<OrganizationRow> {
    const [row] = (await db.query(ORGANIZATION_OF_MEMBER_SQL, [pathId(organizationId), userId])) as OrganizationRow[];
    if (!row) throw problems.notFound();
    return row;
  }

  async get(userId: string, organizationId: string): Promise<Organization> {
    return toOrganization(await this.membership(userId, organizationId));
  }

  async members(userId: string, organizationId: string): Promise<OrganizationMember[]> {
    await this.membership(userId, organizationId);
    const rows = (await this.dataSource.query(
      `SELECT m.user_id, u.email, u.display_name, m.role, m.joined_at
         FROM organization_members m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = $1 ORDER BY m.joined_at, m.user_id`,
      [organizationId],
    )) as MemberRow[];
    return rows.map(toMember);
  }

  /** Only the owner changes roles; ownership itself never moves through this. */
  async updateMember(userId: string, organizationId: string, memberId: string, role: string): Promise<OrganizationMember> {
    const caller = await this.membership(userId, organizationId);
    if (caller.role !== 'owner') throw problems.forbidden('insufficient_role', 'Only the organization owner can change roles.');
    const member = await this.findMember(organizationId, memberId);
    if (member.role === 'owner') throw problems.conflict('owner_role_fixed', "The owner's role cannot be changed.");
    // One statement, so a member removed meanwhile is a 404 rather than a 200 for nothing.
    const rows = await this.dataSource.transaction(async (db) => {
      const updated = await changedRows<{ joined_at: Date; previous_role: OrganizationRole }>(
        db,
        `WITH before AS (SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2 FOR UPDATE)
         UPDATE organization_members m SET role = $3 FROM before b
          WHERE m.organization_id = $1 AND m.user_id = $2 AND m.role <> 'owner'
      RETURNING m.joined_at, b.role AS previous_role`,
        [organizationId, member.user_id, role],
      );
      if (updated.length && updated[0].previous_role !== role) {
        await enqueueRoleChanged(db, {
          organization_id: caller.id,
          name: caller.name,
          user_id: member.user_id,
          role,
          previous_role: updated[0].previous_role,
          changed_by_user_id: userId,
        });
      }
      return updated;
    });
    if (!rows.length) throw problems.notFound('No such member.');
    this.events.changed([member.user_id]);
    return toMember({ ...member, role });
  }

  /**
   * The owner removes anyone but themself, an admin removes plain members, and
   * anyone but the owner may leave. Leaving an organization also leaves its workspaces.
   */
  async removeMember(userId: string, organizationId: string, memberId: string): Promise<void> {
    const caller = await this.membership(userId, organizationId);
    const member = await this.findMember(organizationId, memberId);
    if (member.role === 'owner')
      throw problems.conflict('owner_cannot_leave', 'The owner cannot leave or be removed from the organization.');
    // The stored (lower-case) id: leaving is recognised and caches drop the right user whatever case the path used.
    const leaving = member.user_id === userId;
    const allowed = leaving || caller.role === 'owner' || (caller.role === 'admin' && member.role === 'member');
    if (!allowed) throw problems.forbidden('insufficient_role', 'Your role in this organization does not allow removing this member.');
    await this.dataSource.transaction(async (db) => {
      await db.query(
        `DELETE FROM workspace_members wm USING workspaces w
          WHERE wm.workspace_id = w.id AND w.organization_id = $1 AND wm.user_id = $2`,
        [organizationId, member.user_id],
      );
      await db.query('DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2', [organizationId, member.user_id]);
    });
    this.events.changed([member.user_id]);
  }

  private async findMember(organizationId: string, memberId: string): Promise<MemberRow> {
    const [row] = (await this.dataSource.query(
      `SELECT m.user_id, u.email, u.display_name, m.role, m.joined_at
         FROM organization_members m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = $1 AND m.user_id = $2`,
      [organizationId, pathId(memberId, 'No such member.')],
    )) as MemberRow[];
    if (!row) throw problems.notFound('No such member.');
    return row;
  }
}
