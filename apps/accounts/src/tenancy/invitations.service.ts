import { Inject, Injectable } from '@nestjs/common';
import {
  CreateInvitationRequest,
  EMAIL_DELIVERY_STATUSES,
  INVITATION_STATUSES,
  InvitationAcceptance,
  Principal,
  WorkspaceInvitation,
  WorkspaceRole,
} from '@social/contracts';
import { AccessControl, changedRows, isUuid, Mailer, MailSettings, pathId, problems, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { DataSource } from 'typeorm';
import { hashOpaqueToken, newOpaqueToken } from '../auth/opaque-tokens.js';
import { invitationMail } from './invitation-mail.js';
import { MembershipEvents } from './membership-events.js';

const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
/** The list is answered whole, and each invitation is an email: enough for any real team, not for a mailing. */
export const MAX_OPEN_INVITATIONS = 200;
/** Contract §1: a resend waits 60 s after the last send. */
const RESEND_COOLDOWN_MS = 60_000;

type EmailDeliveryStatus = (typeof EMAIL_DELIVERY_STATUSES)[number];
type InvitationStatus = (typeof INVITATION_STATUSES)[number];

interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: WorkspaceRole;
  invited_by_user_id: string;
  created_at: Date;
  expires_at: Date;
  last_sent_at: Date;
  email_delivery_status: EmailDeliveryStatus;
  email_delivery_updated_at: Date;
  accepted_at: Date | null;
  accepted_by_user_id: string | null;
  revoked_at: Date | null;
}

const COLUMNS = `id, workspace_id, email, role, invited_by_user_id, created_at, expires_at, last_sent_at,
  email_delivery_status, email_delivery_updated_at, accepted_at, accepted_by_user_id, revoked_at`;

/** The status a client sees: what happened to the invitation first, then what its email did. */
function statusOf(row: InvitationRow, now = new Date()): InvitationStatus {
  if (row.revoked_at) return 'revoked';
  if (row.accepted_at) return 'accepted';
  if (row.expires_at <= now) return 'expired';
  if (row.email_delivery_status === 'sent') return 'sent';
  if (row.email_delivery_status === 'failed' || row.email_delivery_status === 'unavailable') return 'delivery_failed';
  return 'created';
}

const toInvitation = (row: InvitationRow, acceptUrl = ''): WorkspaceInvitation => ({
  id: row.id,
  workspace_id: row.workspace_id,
  email: row.email,
  role: row.role,
  status: statusOf(row),
  accept_url: acceptUrl,
  invited_by_user_id: row.invited_by_user_id,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
  last_sent_at: row.last_sent_at.toISOString(),
  email_delivery_status: row.email_delivery_status,
  email_delivery_updated_at: row.email_delivery_updated_at.toISOString(),
  accepted_at: row.accepted_at?.toISOString() ?? '',
  accepted_by_user_id: row.accepted_by_user_id ?? '',
  revoked_at: row.revoked_at?.toISOString() ?? '',
});

const notAcceptable = (detail: string) => problems.conflict('invitation_not_acceptable', detail);

@Injectable()
export class InvitationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly events: MembershipEvents,
    private readonly mailer: Mailer,
    private readonly mailSettings: MailSettings,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  /** Workspace admins invite; the secret is in the answer (once) and in the email, only its hash is kept. */
  async create(principal: Principal, workspaceId: string, input: CreateInvitationRequest): Promise<WorkspaceInvitation> {
    const workspace = await this.access.requireWorkspace(principal, pathId(workspaceId), 'admin', 'path');
    const email = input.email.trim();
    const secret = newOpaqueToken('inv');
    const now = new Date();
    const row = await this.dataSource.transaction(async (db) => {
      // One invitation at a time per workspace: the duplicate and the count checks below hold under concurrency.
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`invitations:${workspace.workspace_id}`]);
      const [member] = (await db.query(
        `SELECT 1 FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 AND lower(u.email) = lower($2)`,
        [workspace.workspace_id, email],
      )) as unknown[];
      if (member) throw problems.conflict('already_member', 'This address already belongs to a member of the workspace.');
      const [open] = (await db.query(
        `SELECT 1 FROM workspace_invitations
          WHERE workspace_id = $1 AND lower(email) = lower($2) AND accepted_at IS NULL AND revoked_at IS NULL`,
        [workspace.workspace_id, email],
      )) as unknown[];
      if (open) {
        throw problems.conflict('invitation_pending', 'This address already has an open invitation; resend or revoke it.');
      }
      const [{ count }] = (await db.query(
        'SELECT count(*)::int AS count FROM workspace_invitations WHERE workspace_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL',
        [workspace.workspace_id],
      )) as Array<{ count: number }>;
      if (count >= MAX_OPEN_INVITATIONS) {
        throw problems.conflict(
          'too_many_invitations',
          `A workspace may have at most ${MAX_OPEN_INVITATIONS} open invitations; revoke some first.`,
        );
      }
      const [inserted] = (await db.query(
        `INSERT INTO workspace_invitations (id, workspace_id, email, role, secret_hash, invited_by_user_id, created_at,
           expires_at, last_sent_at, email_delivery_status, email_delivery_updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7, 'queued', $7) RETURNING ${COLUMNS}`,
        [
          uuidv7(),
          workspace.workspace_id,
          email,
          input.role,
          secret.hash,
          principal.userId,
          now,
          new Date(now.getTime() + INVITATION_TTL_MS),
        ],
      )) as InvitationRow[];
      return inserted;
    });
    const acceptUrl = this.acceptUrl(secret.token);
    return toInvitation(await this.deliver(row, workspace.workspace_name, acceptUrl), acceptUrl);
  }

  async list(principal: Principal, workspaceId: string): Promise<WorkspaceInvitation[]> {
    const workspace = await this.access.requireWorkspace(principal, pathId(workspaceId), 'admin', 'path');
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM workspace_invitations WHERE workspace_id = $1 ORDER BY created_at DESC, id`,
      [workspace.workspace_id],
    )) as InvitationRow[];
    return rows.map((row) => toInvitation(row));
  }

  async get(principal: Principal, workspaceId: string, invitationId: string): Promise<WorkspaceInvitation> {
    const workspace = await this.access.requireWorkspace(principal, pathId(workspaceId), 'admin', 'path');
    return toInvitation(await this.find(workspace.workspace_id, invitationId));
  }

  /**
   * Revoking twice is still 204; an accepted invitation cannot be revoked
   * (remove the member instead). The row is locked, so an acceptance racing
   * the revocation is answered one way or the other, never both.
   */
  async revoke(principal: Principal, workspaceId: string, invitationId: string): Promise<void> {
    const workspace = await this.access.requireWorkspace(principal, pathId(workspaceId), 'admin', 'path');
    await this.dataSource.transaction(async (db) => {
      const [row] = isUuid(invitationId)
        ? ((await db.query('SELECT id, accepted_at, revoked_at FROM workspace_invitations WHERE id = $1 AND workspace_id = $2 FOR UPDATE', [
            invitationId,
            workspace.workspace_id,
          ])) as Array<Pick<InvitationRow, 'id' | 'accepted_at' | 'revoked_at'>>)
        : [];
      if (!row) throw problems.notFound('No such invitation.');
      if (row.accepted_at)
        throw problems.conflict('invitation_not_revocable', 'An accepted invitation cannot be revoked; remove the member instead.');
      if (!row.revoked_at) await db.query('UPDATE workspace_invitations SET revoked_at = now() WHERE id = $1', [row.id]);
    });
  }

  /**
   * E11: a pending or expired invitation gets a new secret (the old link dies),
   * seven more days and another email; accepted or revoked is 409 (checked
   * first), and within 60 s of the last send 429. The cooldown is claimed in the
   * same UPDATE that rotates the secret, so two racing resends send one email.
   */
  async resend(principal: Principal, workspaceId: string, invitationId: string): Promise<WorkspaceInvitation> {
    const workspace = await this.access.requireWorkspace(principal, pathId(workspaceId), 'admin', 'path');
    const current = await this.find(workspace.workspace_id, invitationId);
    if (current.accepted_at || current.revoked_at) {
      throw problems.conflict(
        'invitation_not_resendable',
        `The invitation is ${statusOf(current)}; only pending or expired ones can be resent.`,
      );
    }
    const secret = newOpaqueToken('inv');
    const now = new Date();
    const rows = await changedRows<InvitationRow>(
      this.dataSource,
      `UPDATE workspace_invitations
          SET secret_hash = $2, expires_at = $3, last_sent_at = $4, email_delivery_status = 'queued', email_delivery_updated_at = $4
        WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND last_sent_at <= $5
        RETURNING ${COLUMNS}`,
      [current.id, secret.hash, new Date(now.getTime() + INVITATION_TTL_MS), now, new Date(now.getTime() - RESEND_COOLDOWN_MS)],
    );
    if (!rows.length) {
      const latest = await this.find(workspace.workspace_id, invitationId);
      if (latest.accepted_at || latest.revoked_at) {
        throw problems.conflict(
          'invitation_not_resendable',
          `The invitation is ${statusOf(latest)}; only pending or expired ones can be resent.`,
        );
      }
      const waitMs = latest.last_sent_at.getTime() + RESEND_COOLDOWN_MS - now.getTime();
      throw problems.tooManyRequests(waitMs / 1000, 'The invitation was sent less than a minute ago; try again later.');
    }
    const acceptUrl = this.acceptUrl(secret.token);
    return toInvitation(await this.deliver(rows[0], workspace.workspace_name, acceptUrl), acceptUrl);
  }

  /** Every refusal is the same 409, so a token reveals nothing about invitations it does not open. */
  async accept(principal: Principal, token: string): Promise<InvitationAcceptance> {
    const result = await this.dataSource.transaction(async (db) => {
      const [row] = (await db.query(
        `SELECT i.id, i.workspace_id, i.role, i.email, i.expires_at, i.accepted_at, i.revoked_at, w.organization_id
           FROM workspace_invitations i JOIN workspaces w ON w.id = i.workspace_id
          WHERE i.secret_hash = $1 FOR UPDATE OF i`,
        [hashOpaqueToken(token)],
      )) as Array<InvitationRow & { organization_id: string }>;
      if (!row || row.accepted_at || row.revoked_at || row.expires_at <= new Date()) {
        throw notAcceptable('This invitation link is not valid (unknown, expired, revoked or already used).');
      }
      const [user] = (await db.query('SELECT email FROM users WHERE id = $1', [principal.userId])) as Array<{ email: string }>;
      if (!user || user.email.toLowerCase() !== row.email.toLowerCase()) {
        throw notAcceptable('This invitation was sent to another email address.');
      }
      const joined = (await db.query(
        `INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, $3, now())
         ON CONFLICT DO NOTHING RETURNING user_id`,
        [row.workspace_id, principal.userId, row.role],
      )) as unknown[];
      if (!joined.length) throw notAcceptable('You are already a member of this workspace.');
      await db.query(
        `INSERT INTO organization_members (organization_id, user_id, role, joined_at) VALUES ($1, $2, 'member', now())
         ON CONFLICT DO NOTHING`,
        [row.organization_id, principal.userId],
      );
      await db.query('UPDATE workspace_invitations SET accepted_at = now(), accepted_by_user_id = $2 WHERE id = $1', [
        row.id,
        principal.userId,
      ]);
      return { workspace_id: row.workspace_id, role: row.role, accepted: true };
    });
    this.events.changed([principal.userId]);
    return result;
  }

  private async find(workspaceId: string, invitationId: string): Promise<InvitationRow> {
    const [row] = isUuid(invitationId)
      ? ((await this.dataSource.query(`SELECT ${COLUMNS} FROM workspace_invitations WHERE id = $1 AND workspace_id = $2`, [
          invitationId,
          workspaceId,
        ])) as InvitationRow[])
      : [];
    if (!row) throw problems.notFound('No such invitation.');
    return row;
  }

  private acceptUrl(secret: string): string {
    return `${this.mailSettings.publicAppUrl}/invite?token=${encodeURIComponent(secret)}`;
  }

  /**
   * Sends after the invitation is committed (a slow SMTP server holds no
   * transaction), then records what SMTP answered: sent, failed, or unavailable
   * when no SMTP is configured. The invitation stands either way; E11 retries.
   */
  private async deliver(row: InvitationRow, workspaceName: string, acceptUrl: string): Promise<InvitationRow> {
    let outcome: Extract<EmailDeliveryStatus, 'sent' | 'failed' | 'unavailable'> = 'unavailable';
    if (this.mailer.configured) {
      try {
        await this.mailer.send(invitationMail({ to: row.email, workspaceName, role: row.role, acceptUrl, expiresAt: row.expires_at }));
        outcome = 'sent';
      } catch (error) {
        this.logger.warn({ err: error, invitationId: row.id }, 'invitation email was not delivered');
        outcome = 'failed';
      }
    }
    const rows = await changedRows<InvitationRow>(
      this.dataSource,
      `UPDATE workspace_invitations SET email_delivery_status = $2, email_delivery_updated_at = now()
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [row.id, outcome],
    );
    return rows[0] ?? row;
  }
}
