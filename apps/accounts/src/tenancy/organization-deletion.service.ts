import { Injectable } from '@nestjs/common';
import {
  ORGANIZATION_DELETED_SUBJECT,
  OrganizationDeletedEvent,
  OrganizationDeletion,
  OrganizationDeletionPreview,
  PENDING_WORK_SERVICES,
  pendingWorkPattern,
  PendingWorkReply,
  PendingWorkRequest,
} from '@social/contracts';
import { askEach, changedRows, enqueueEvent, problems, RpcClient } from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import type { ApiTokenEntity } from '../api-tokens/api-token.entity.js';
import { ApiTokensService } from '../api-tokens/api-tokens.service.js';
import { MembershipEvents } from './membership-events.js';
import { OrganizationsService } from './organizations.service.js';

/** Contract §2: the fixed parts of the preview. */
const ACCESS_EFFECTS = ['organization_memberships', 'workspace_memberships', 'organization_credentials'];
const RETAINED = ['required_audit_evidence'];
const IRREVERSIBLE_LOSS = ['workspaces', 'content', 'connected_accounts', 'media', 'settings'];
/** A service slower than this is reported as a blocker: the preview never hangs on one. */
const PENDING_WORK_TIMEOUT_MS = 1_500;

@Injectable()
export class OrganizationDeletionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsService,
    private readonly rpc: RpcClient,
    private readonly events: MembershipEvents,
    private readonly apiTokens: ApiTokensService,
  ) {}

  /** E10, for the owner only: members get 403, everyone else 404. */
  async preview(userId: string, organizationId: string): Promise<OrganizationDeletionPreview> {
    const organization = await this.organizations.membership(userId, organizationId);
    if (organization.role !== 'owner') {
      throw problems.forbidden('owner_only', 'Only the organization owner can see or request its deletion.');
    }
    const workspaces = (await this.dataSource.query(
      'SELECT id AS workspace_id, name AS workspace_name FROM workspaces WHERE organization_id = $1 ORDER BY created_at, id',
      [organization.id],
    )) as Array<{ workspace_id: string; workspace_name: string }>;
    const { answers, unanswered } = await askEach<PendingWorkReply>(
      this.rpc,
      PENDING_WORK_SERVICES,
      pendingWorkPattern,
      { workspace_ids: workspaces.map((w) => w.workspace_id) } satisfies PendingWorkRequest,
      PENDING_WORK_TIMEOUT_MS,
    );
    const pending = { pending_jobs: 0, pending_cleanup_jobs: 0, pending_provider_writes: 0 };
    for (const reply of answers.values()) {
      pending.pending_jobs += reply.pending_jobs;
      pending.pending_cleanup_jobs += reply.pending_cleanup_jobs;
      pending.pending_provider_writes += reply.pending_provider_writes;
    }
    const blockers: Array<{ code: string; message: string }> = [];
    if (unanswered.length) {
      blockers.push({
        code: 'pending_work_unknown',
        message: `Pending work could not be counted: ${unanswered.length} service(s) did not answer in time. Try again shortly.`,
      });
    }
    if (pending.pending_provider_writes > 0) {
      blockers.push({
        code: 'pending_external_writes',
        message: `${pending.pending_provider_writes} write(s) to social networks are in flight; wait for them to finish.`,
      });
    }
    if (pending.pending_cleanup_jobs > 0) {
      blockers.push({
        code: 'pending_cleanup',
        message: `${pending.pending_cleanup_jobs} cleanup job(s) are still running; try again shortly.`,
      });
    }
    return {
      organization_id: organization.id,
      organization_name: organization.name,
      workspaces,
      billing_state: 'none',
      pending_work: pending,
      access_effects: ACCESS_EFFECTS,
      retained: RETAINED,
      irreversible_loss: IRREVERSIBLE_LOSS,
      blockers,
      recovery_possible: false,
    };
  }

  /**
   * Refused while the preview shows blockers. Otherwise the organization, its
   * workspaces, memberships and invitations go in one transaction together with
   * the durable event every service purges its own data from (outbox → JetStream):
   * a service that is down meanwhile purges when it comes back.
   */
  async delete(userId: string, organizationId: string): Promise<OrganizationDeletion> {
    const preview = await this.preview(userId, organizationId);
    if (preview.blockers.length) {
      throw problems.conflict('deletion_blocked', 'The organization cannot be deleted yet; see blockers.', { blockers: preview.blockers });
    }
    const deletedAt = new Date();
    const { workspaceIds, revokedTokenIds } = await this.dataSource.transaction(async (db) => {
      // Locks the organization against a concurrent workspace creation or second delete.
      const locked = (await db.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [preview.organization_id])) as unknown[];
      if (!locked.length) throw problems.notFound();
      const ids = await this.workspaceIds(db, preview.organization_id);
      const event: OrganizationDeletedEvent = {
        organization_id: preview.organization_id,
        workspace_ids: ids,
        deleted_at: deletedAt.toISOString(),
      };
      // Tokens bound to these workspaces die with them (revoked, like a deleted token).
      const tokens = await changedRows<Pick<ApiTokenEntity, 'id'>>(
        db,
        'UPDATE api_tokens SET revoked_at = $2 WHERE workspace_id = ANY($1::uuid[]) AND revoked_at IS NULL RETURNING id',
        [ids, deletedAt],
      );
      await db.query('DELETE FROM organizations WHERE id = $1', [preview.organization_id]);
      await enqueueEvent(db, ORGANIZATION_DELETED_SUBJECT, event);
      return { workspaceIds: ids, revokedTokenIds: tokens.map((t) => t.id) };
    });
    this.events.everyoneChanged();
    this.apiTokens.announceRevoked(revokedTokenIds, deletedAt);
    return { organization_id: preview.organization_id, workspace_ids: workspaceIds, deleted_at: deletedAt.toISOString() };
  }

  /** Accounts' own answer to "pending work": purge events for these workspaces not yet handed to JetStream. */
  async pendingWork(request: PendingWorkRequest): Promise<PendingWorkReply> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS pending FROM outbox_events
        WHERE published_at IS NULL AND payload->'workspace_ids' ?| $1::text[]`,
      [request.workspace_ids ?? []],
    )) as Array<{ pending: number }>;
    return { pending_jobs: 0, pending_cleanup_jobs: row?.pending ?? 0, pending_provider_writes: 0 };
  }

  private async workspaceIds(db: EntityManager, organizationId: string): Promise<string[]> {
    const rows = (await db.query('SELECT id FROM workspaces WHERE organization_id = $1', [organizationId])) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }
}
