import { Injectable } from '@nestjs/common';
import {
  DeliveryAttemptList,
  Principal,
  Publication,
  PublicationTargetsRequest,
  PublicationTransitionRequest,
  PublicationStatus,
  PublishNowRequest,
  SCHEDULE_MAX_AHEAD_MS,
  SCHEDULE_PAST_TOLERANCE_MS,
  SchedulePublicationRequest,
  SocialAccountStatus,
  WorkspaceRole,
} from '@social/contracts';
import { AccessControl, changedRows, problems } from '@social/platform';
import { DataSource, EntityManager, type QueryDeepPartialEntity } from 'typeorm';
import { PublicationEntity, PublicationSegmentEntity } from '../publications/publication.entity.js';
import { PublicationsService } from '../publications/publications.service.js';
import type { DeliveryAttemptRow } from './delivery-attempt.row.js';
import { requireActiveAccounts } from '../social-accounts/active-accounts.js';
import { networkRulesProblem, notifyDue, readOverrides, renderChecked, replaceRenditions, type TargetAccount } from './renditions.js';

/** Which statuses each call leaves from (docs/decisions.md "Delivery", transitions). */
const FROM: Record<'schedule' | 'publish-now' | 'cancel' | 'retry', readonly PublicationStatus[]> = {
  schedule: ['draft', 'ready', 'scheduled'],
  'publish-now': ['draft', 'ready', 'scheduled'],
  cancel: ['scheduled'],
  retry: ['failed', 'published'],
};
type Transition = keyof typeof FROM;

/** Where targets came from, for the 422 that names a refused one. */
export type TargetSource = { kind: 'accounts' } | { kind: 'set' } | { kind: 'existing' };

/**
 * The delivery operations on a publication (docs/decisions.md "Delivery"):
 * schedule, publish-now, cancel, retry and the attempts list. Each call
 * moves the publication only from the statuses the transitions table allows
 * and only at the revision the caller saw: both sit in one UPDATE's WHERE, so
 * of two racing calls one wins and the other changes nothing.
 */
@Injectable()
export class DeliveryOperations {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly publications: PublicationsService,
  ) {}

  async schedule(principal: Principal, id: string, input: SchedulePublicationRequest): Promise<Publication> {
    const found = await this.findVisible(principal, id, 'editor');
    const scheduledAt = new Date(input.scheduled_at);
    const now = Date.now();
    if (scheduledAt.getTime() < now - SCHEDULE_PAST_TOLERANCE_MS)
      throw problems.invalid('body.scheduled_at', 'is in the past', input.scheduled_at);
    if (scheduledAt.getTime() > now + SCHEDULE_MAX_AHEAD_MS)
      throw problems.invalid('body.scheduled_at', 'is more than 2 years ahead', input.scheduled_at);
    // Every transition answers the publication as its transaction leaves it: a worker woken at commit may already be
    // sending it by the time a later read would run.
    return this.dataSource.transaction(async (db) => {
      const targets = await this.resolveTargets(db, found, input);
      const publication = await this.transition(db, id, input.expected_revision, 'schedule', {
        status: 'scheduled',
        scheduledAt,
        socialSetId: input.social_set_id ?? (input.account_ids ? null : found.socialSetId),
      });
      await this.render(db, publication, targets, scheduledAt, publication.randomDelayMinutes);
      // Every scheduler looks again at its next due time (this one may be sooner than what it sleeps until).
      await notifyDue(db);
      return this.publications.read(id, db);
    });
  }

  async publishNow(principal: Principal, id: string, input: PublishNowRequest): Promise<Publication> {
    const found = await this.findVisible(principal, id, 'editor');
    // A stale revision is told first: the caller's view is out of date (e.g. a racing schedule just made it scheduled).
    if (found.revision !== input.expected_revision) throw problems.revisionConflict('publication', found.revision, input.expected_revision);
    // A scheduled publication goes out as it is: its renditions and their overrides (docs/decisions.md).
    if (found.status === 'scheduled' && (input.account_ids !== undefined || input.social_set_id !== undefined)) {
      const location = input.account_ids !== undefined ? 'body.account_ids' : 'body.social_set_id';
      throw problems.invalid(
        location,
        'cannot be sent for a scheduled publication: publish-now keeps its renditions (cancel to change the targets)',
      );
    }
    return this.dataSource.transaction(async (db) => {
      const targets = await this.resolveTargets(db, found, input);
      const now = new Date();
      const publication = await this.transition(db, id, input.expected_revision, 'publish-now', {
        status: 'publishing',
        scheduledAt: now,
        socialSetId: input.social_set_id ?? (input.account_ids ? null : found.socialSetId),
      });
      // Due at once: no random delay.
      await this.render(db, publication, targets, now, 0);
      await notifyDue(db);
      return this.publications.read(id, db);
    });
  }

  /** Back to draft; its renditions go (none was delivered: the publication would be publishing). */
  async cancel(principal: Principal, id: string, input: PublicationTransitionRequest): Promise<Publication> {
    await this.findVisible(principal, id, 'editor');
    return this.dataSource.transaction(async (db) => {
      await this.transition(db, id, input.expected_revision, 'cancel', { status: 'draft', scheduledAt: null });
      await db.query(`DELETE FROM renditions WHERE publication_id = $1`, [id]);
      return this.publications.read(id, db);
    });
  }

  /** The failed renditions only go again, each with a new round of attempts; the others keep what they have. */
  async retry(principal: Principal, id: string, input: PublicationTransitionRequest): Promise<Publication> {
    await this.findVisible(principal, id, 'editor');
    return this.dataSource.transaction(async (db) => {
      await this.transition(db, id, input.expected_revision, 'retry', { status: 'publishing' });
      const retried = await changedRows(
        db,
        `UPDATE renditions SET status = 'scheduled', delivery_state = 'queued', delivery_recovery_action = 'none',
                delivery_terminal_reason = '',
                delivery_next_reconciliation_at = NULL, error_action = '', error_code = '', error_kind = '', error_message = '',
                error_http_status = 0, error_retryable = false, error_retry_at = NULL,
                round_attempts = 0, reconcile_failures = 0, next_action_at = now(), lease_owner = '', lease_expires_at = NULL,
                updated_at = now()
          WHERE publication_id = $1 AND status = 'failed' RETURNING id`,
        [id],
      );
      // A published publication without failed renditions has nothing to retry: refused, and the UPDATE above rolls back.
      if (retried.length === 0) throw this.invalidTransition('retry', 'published', 'it has no failed renditions');
      await notifyDue(db);
      return this.publications.read(id, db);
    });
  }

  /** Every attempt of every rendition, oldest first. */
  async deliveries(principal: Principal, id: string): Promise<DeliveryAttemptList> {
    await this.findVisible(principal, id, 'viewer');
    const rows: DeliveryAttemptRow[] = await this.dataSource.query(
      `SELECT id, rendition_id, attempt, started_at, finished_at, outcome, error_code, error_message, http_status
         FROM delivery_attempts WHERE publication_id = $1 ORDER BY started_at, id`,
      [id],
    );
    return {
      attempts: rows.map((row) => ({
        id: row.id,
        rendition_id: row.rendition_id,
        attempt: row.attempt,
        started_at: row.started_at.toISOString(),
        finished_at: row.finished_at ? row.finished_at.toISOString() : '',
        outcome: row.outcome,
        error_code: row.error_code,
        error_message: row.error_message,
        http_status: row.http_status,
      })),
    };
  }

  private findVisible(principal: Principal, id: string, need: WorkspaceRole): Promise<PublicationEntity> {
    return this.access.requireVisible(
      principal,
      () => this.dataSource.getRepository(PublicationEntity).findOneBy({ id }),
      need,
      'No such publication.',
    );
  }

  /**
   * Moves the publication if it is at the caller's revision and in a status
   * the call leaves from (one UPDATE), adding 1 to its revision; else the
   * refusal explained from the row: a stale revision first, then the status.
   */
  private async transition(
    db: EntityManager,
    id: string,
    expectedRevision: number,
    call: Transition,
    set: Pick<PublicationEntity, 'status'> & Partial<Pick<PublicationEntity, 'scheduledAt' | 'socialSetId'>>,
  ): Promise<PublicationEntity> {
    const changes: QueryDeepPartialEntity<PublicationEntity> = {
      status: set.status,
      revision: () => 'revision + 1',
      updatedAt: () => 'now()',
    };
    // Left out: kept as stored.
    if (set.scheduledAt !== undefined) changes.scheduledAt = set.scheduledAt;
    if (set.socialSetId !== undefined) changes.socialSetId = set.socialSetId;
    const result = await db
      .createQueryBuilder()
      .update(PublicationEntity)
      .set(changes)
      .where('id = :id AND revision = :revision AND status IN (:...from)', { id, revision: expectedRevision, from: FROM[call] })
      .execute();
    const current = await db.getRepository(PublicationEntity).findOneBy({ id });
    if (!current) throw problems.notFound('No such publication.');
    if (result.affected === 1) return current;
    if (current.revision !== expectedRevision) {
      throw problems.revisionConflict('publication', current.revision, expectedRevision);
    }
    throw this.invalidTransition(call, current.status);
  }

  private invalidTransition(call: Transition, status: PublicationStatus, why?: string) {
    return problems.conflict(
      'invalid_transition',
      `A ${status} publication cannot be ` +
        `${call === 'publish-now' ? 'published now' : call === 'schedule' ? 'scheduled' : call === 'cancel' ? 'cancelled' : 'retried'}` +
        (why ? `: ${why}.` : `; only ${FROM[call].join(', ')} ones can.`),
      { current_status: status },
    );
  }

  /**
   * The target accounts: `account_ids`, or the accounts of `social_set_id`,
   * or, when neither is sent, the publication's renditions or its social set.
   * Every one must be an active account of the publication's workspace (422).
   */
  async resolveTargets(
    db: EntityManager,
    publication: PublicationEntity,
    input: PublicationTargetsRequest,
  ): Promise<{ accounts: TargetAccount[]; source: TargetSource }> {
    if (input.social_set_id !== undefined && input.account_ids !== undefined) {
      throw problems.invalid('body.account_ids', 'cannot be sent with social_set_id: name the targets one way');
    }
    if (input.account_ids !== undefined) {
      const ids = await requireActiveAccounts(db, publication.workspaceId, input.account_ids, (index) => `body.account_ids[${index}]`);
      return { accounts: await this.accountsByIds(db, ids), source: { kind: 'accounts' } };
    }
    if (input.social_set_id !== undefined) {
      return {
        accounts: await this.setAccounts(db, publication.workspaceId, input.social_set_id, 'body.social_set_id'),
        source: { kind: 'set' },
      };
    }
    const existing: Array<{ social_account_id: string; settings: Record<string, unknown>; output_profile: string }> = await db.query(
      `SELECT social_account_id, settings, output_profile FROM renditions WHERE publication_id = $1 ORDER BY created_at, id`,
      [publication.id],
    );
    if (existing.length > 0) {
      const ids = await requireActiveAccounts(
        db,
        publication.workspaceId,
        existing.map((row) => row.social_account_id),
        () => 'body.account_ids',
      );
      // The renditions' own settings stay with their accounts.
      const accounts = (await this.accountsByIds(db, ids)).map((account, index) => ({
        ...account,
        settings: existing[index].settings,
        output_profile: existing[index].output_profile,
      }));
      return { accounts, source: { kind: 'existing' } };
    }
    if (publication.socialSetId) {
      return {
        accounts: await this.setAccounts(db, publication.workspaceId, publication.socialSetId, 'body.social_set_id'),
        source: { kind: 'existing' },
      };
    }
    throw problems.invalid('body.account_ids', 'is required (or social_set_id): the publication has no targets yet');
  }

  private async accountsByIds(db: EntityManager, ids: string[]): Promise<TargetAccount[]> {
    const rows: TargetAccount[] = await db.query(`SELECT id, platform, username FROM social_accounts WHERE id = ANY($1::uuid[])`, [ids]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id)).filter((account): account is TargetAccount => account !== undefined);
  }

  /** The set's accounts in its order; the set must be the workspace's, not empty, and every account active. */
  private async setAccounts(db: EntityManager, workspaceId: string, setId: string, location: string): Promise<TargetAccount[]> {
    const [set]: Array<{ id: string }> = await db.query(`SELECT id FROM social_sets WHERE id = $1 AND workspace_id = $2`, [
      setId.toLowerCase(),
      workspaceId,
    ]);
    if (!set) throw problems.invalid(location, 'is not a social set of this workspace', setId);
    const rows: Array<TargetAccount & { status: SocialAccountStatus }> = await db.query(
      `SELECT a.id, a.platform, a.username, a.status, m.default_settings AS settings, m.default_output_profile AS output_profile
         FROM social_set_accounts m JOIN social_accounts a ON a.id = m.social_account_id
        WHERE m.social_set_id = $1 ORDER BY m.display_order FOR SHARE OF a`,
      [set.id],
    );
    if (rows.length === 0) throw problems.invalid(location, 'holds no account to publish to', setId);
    const inactive = rows.filter((row) => row.status !== 'active');
    if (inactive.length > 0) {
      throw problems.invalid(
        location,
        `holds accounts that are not active: ${inactive.map((row) => `${row.platform} @${row.username} (${row.id})`).join(', ')}`,
        setId,
      );
    }
    return rows.map(({ status: _status, ...account }) => account);
  }

  /**
   * Renders for every target (keeping the overrides of accounts that stay) and replaces the renditions.
   * A text a network cannot take, or media its rules refuse, is 422 `network_rules` naming each problem.
   */
  private async render(
    db: EntityManager,
    publication: PublicationEntity,
    targets: { accounts: TargetAccount[]; source: TargetSource },
    dueAt: Date,
    randomDelayMinutes: number,
  ): Promise<void> {
    const segments = await db
      .getRepository(PublicationSegmentEntity)
      .find({ where: { publicationId: publication.id }, order: { position: 'ASC' } });
    const overrides = await readOverrides(db, publication.id);
    const { parts, problems: found } = await renderChecked(db, publication, segments, targets.accounts, overrides);
    const refusal = networkRulesProblem(found);
    if (refusal) throw refusal;
    await replaceRenditions(db, publication, targets.accounts, parts, dueAt, randomDelayMinutes, overrides);
  }
}
