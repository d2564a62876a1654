import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import {
  type AttachedMedia,
  MAX_DELIVERY_ATTEMPTS,
  type PublicationStatus,
  RENDITION_FAILED_SUBJECT,
  RENDITION_NEEDS_ATTENTION_SUBJECT,
  RENDITION_PUBLISHED_SUBJECT,
  type RenditionEventBase,
  type RenditionFailedEvent,
  type RenditionNeedsAttentionEvent,
  type RenditionPublishedEvent,
  type ResolvedMedia,
} from '@social/contracts';
import {
  changedRows,
  ClaimLoop,
  enqueueEvent,
  enqueueEvents,
  KeyedBatches,
  Metrics,
  preparedQuery,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  untilNextDue,
} from '@social/platform';
import type { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { PublishingConfig } from '../config.js';
import { ProviderRegistry } from '../providers/provider-registry.js';
import {
  DeliveryError,
  type DeliveryFailure,
  type OutgoingPost,
  type ProviderAccount,
  type PublishedPost,
} from '../providers/social-provider.js';
import { markReconnectRequired, ProviderAccounts } from '../social-accounts/provider-accounts.js';
import type { SocialAccountEntity } from '../social-accounts/social-account.entity.js';
import { type DeliveryOutcome, watchScheduler } from './delivery-metrics.js';
import { deliveryChannel, deriveStatus } from './renditions.js';
import type { DeliveryState } from '../publications/rendition.entity.js';
import type { AttemptOutcome } from './delivery-attempt.row.js';
import { attachmentsOf, countedMedia, DeliveryMedia, stillAnalysing } from './delivery-media.js';
import { MediaLibraryClient } from '../media/media-library.client.js';
import { errorActionFor, retryDelayMs } from './retry-policy.js';

// Hand-written SQL, not TypeORM: the scheduler's measured hot path (`scheduler` benchmark, docs/performance.md), a round trip a step.

/** A rendition as the claim hands it over. */
interface Claimed {
  id: string;
  publication_id: string;
  social_account_id: string;
  platform: string;
  delivery_state: DeliveryState;
  delivery_current_attempt_id: string | null;
  delivery_current_attempt_number: number;
  /** When the current attempt started (its call may land until then + the call's bound). */
  delivery_current_attempt_created_at: Date | null;
  /** This claim's lease (`lease_owner`): every later write holds only while it is still this value. */
  lease: string;
  round_attempts: number;
  reconcile_failures: number;
  /** The rendition's segments as the network gets them, in order, each with its effective media (rendition_segments.media). */
  parts: Array<{ title: string; text: string; link: string; media: unknown }>;
  settings: Record<string, unknown>;
  workspace_id: string;
  /** Since when this rendition has waited for its media's analysis; null when it is not waiting. */
  media_waiting_since: Date | null;
  /** Set by `send` for its attempt: how long its publish call may take (longer with media to upload). */
  publish_bound_ms?: number;
}

/** A rendition an UPDATE … RETURNING id still found under this claim's lease. */
interface RenditionIdRow {
  id: string;
}

/** The next future due time. */
interface DueRow {
  at: Date;
}

/** A rendition about to be sent: its attempt, to be committed as `submitted` with its publication's others (`submitTogether`). */
interface Submitting {
  row: Claimed;
  attemptId: string;
  attempt: number;
  startedAt: Date;
}

/** A rendition the network has, waiting to be recorded live with its publication's others. */
interface GoingLive {
  row: Claimed;
  /** The attempt that created the post; null when a reconciliation found it (the attempt keeps its own outcome). */
  attemptId: string | null;
  published: PublishedPost;
  reconciled: boolean;
}

/** The publication locked before its rendition is written. */
interface LockedPublicationRow {
  workspace_id: string;
}

/** An external id another rendition of the account owns. */
interface OwnedPostRow {
  external_id: string;
}

/** A rendition being delivered: the claim's lease, until when it was last renewed, and how to abort the call. */
interface InFlight {
  lease: string;
  leaseUntil: number;
  abort: AbortController;
}

/** How long the first rendition of a publication to go live waits for the others before their transaction (`goingLive`). */
const GO_LIVE_GATHER_MS = 20;
/** How long a publication's first rendition to be submitted waits for the others claimed with it (`submitting`). */
const SUBMIT_GATHER_MS = 2;
/** How long a rendition waits for its media's analysis (from its first try) before it fails `media_not_ready` (docs/decisions.md). */
export const MEDIA_ANALYSIS_WAIT_MS = 10 * 60_000;
/** How often a waiting rendition asks again whether the analysis has ended. */
const MEDIA_ANALYSIS_POLL_MS = 3_000;
/** Bytes per second an upload is given at least before the call counts as hung (1 MiB/s). */
const MEDIA_UPLOAD_MIN_RATE = 1024 * 1024;
/** Reconciliations that could not reach the network before the rendition goes to manual resolution. */
const MAX_RECONCILE_FAILURES = 5;
/** Thrown inside a transaction to roll it back when the rendition is no longer ours (cancelled, re-rendered, account gone). */
class NotOurs extends Error {}

/**
 * The scheduler (docs/decisions.md "Delivery"), one per publishing replica.
 *
 * Due renditions are claimed from PostgreSQL in short transactions
 * (`FOR UPDATE SKIP LOCKED`, then a lease: `lease_owner`, `lease_expires_at`),
 * so any number of replicas share the work and never hold the same rendition.
 * Before calling the network the attempt is committed as `submitted`; the
 * lease is renewed while the call runs. A rendition found `submitted` with an
 * expired lease means its replica died mid-call: the outcome is unknown, so it
 * becomes `ambiguous` and the network is asked (`findPost`) before anything is
 * sent again. Outcomes, the publication's derived status and the durable
 * event are written in one transaction that holds only while the lease is ours.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /**
   * The claim loop: the lease owner, the renditions this replica is delivering (by id: the claim's lease, until when
   * it was last renewed, and how to abort the call), woken by the NOTIFY of renditions that became due now and by a
   * finished delivery (a slot is free).
   */
  private readonly claims: ClaimLoop<InFlight>;
  /** Counts what each delivery step ended with (`social_scheduler_delivery_outcomes_total`). */
  private readonly counted: (outcome: DeliveryOutcome) => void;
  /**
   * Renditions that went live, recorded together per publication (`goLiveTogether`). A publication's renditions are
   * sent side by side and mostly answered within milliseconds of each other: the first waits GO_LIVE_GATHER_MS for them.
   */
  private readonly goingLive = new KeyedBatches<GoingLive, boolean>(
    (publicationId, items) => this.goLiveTogether(publicationId, items),
    GO_LIVE_GATHER_MS,
  );
  /**
   * Attempts committed as `submitted` together per publication (`submitTogether`): a claim hands over a publication's
   * due renditions at once, and each submit alone queued on the publication's row behind the others.
   */
  private readonly submitting = new KeyedBatches<Submitting, boolean>(
    (publicationId, items) => this.submitTogether(publicationId, items),
    SUBMIT_GATHER_MS,
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly providers: ProviderRegistry,
    private readonly accounts: ProviderAccounts,
    private readonly library: MediaLibraryClient,
    private readonly media: DeliveryMedia,
    @Inject(SERVICE_CONFIG) private readonly config: PublishingConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Optional() @Inject(Metrics) metrics?: Metrics,
  ) {
    this.counted = metrics ? watchScheduler(metrics, dataSource) : () => undefined;
    this.claims = new ClaimLoop<InFlight>(dataSource, {
      channelOf: deliveryChannel,
      logger,
      who: 'scheduler',
      claimFailed: 'scheduler could not claim renditions',
      pass: () => this.pass(),
      renew: { ms: config.DELIVERY_LEASE_MS, leases: (entries) => this.renewLeases(entries) },
    });
  }

  onApplicationBootstrap(): void {
    this.claims.start();
  }

  /** Claims nothing more, lets the calls in progress finish and record their outcome, then stops listening. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.claims.stop();
  }

  /** One pass of the claim loop: claims in batches, waiting until a quarter of the slots are free (or all, when idle). */
  private async pass(): Promise<number> {
    const poll = this.config.DELIVERY_POLL_MS;
    const concurrency = this.config.DELIVERY_CONCURRENCY;
    const busy = this.claims.inFlight.size;
    const free = concurrency - busy;
    if (free < Math.max(1, Math.floor(concurrency / 4)) && busy > 0) return poll;
    const rows = await this.claim(free);
    const accounts = await this.accountsOf(rows);
    for (const row of rows) this.start(row, accounts.get(row.social_account_id));
    // Saturated: more may be due; go on as soon as slots free up.
    if (rows.length === free) return poll;
    return this.untilNextDue(poll);
  }

  /**
   * Due renditions, or ones whose holder's lease ran out, leased in one short
   * transaction, each under a lease of its own (`owner/uuid`): a later write
   * of an older claim of the same rendition, even by this replica, finds the
   * lease changed and writes nothing. Renditions this replica is still
   * delivering are never claimed again (their lease may have run out while
   * renewals could not reach the database; the call is still running).
   */
  private async claim(limit: number): Promise<Claimed[]> {
    if (limit <= 0) return [];
    // Named: every pass runs it (a finished delivery wakes the loop), and planning it cost more than running it. The claimed
    // rows are updated by id: joined to `due`, the generic plan read the whole table to match them (docs/performance.md).
    return preparedQuery<Claimed>(
      this.dataSource,
      'publishing.delivery.claim',
      `WITH due AS (
         SELECT id FROM renditions
          WHERE next_action_at <= now() AND (lease_expires_at IS NULL OR lease_expires_at < now()) AND NOT (id = ANY($4::uuid[]))
          ORDER BY next_action_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE renditions r
          SET lease_owner = $2 || '/' || gen_random_uuid(), lease_expires_at = now() + make_interval(secs => $3::int / 1000.0)
        WHERE r.id = ANY(ARRAY(SELECT id FROM due))
       RETURNING r.id, r.publication_id, r.social_account_id, r.platform, r.delivery_state, r.delivery_current_attempt_id,
                 r.delivery_current_attempt_number, r.delivery_current_attempt_created_at, r.lease_owner AS lease, r.round_attempts,
                 r.reconcile_failures, r.settings, r.media_waiting_since,
                 (SELECT p.workspace_id FROM publications p WHERE p.id = r.publication_id) AS workspace_id,
                 (SELECT coalesce(json_agg(json_build_object(
                           'title', coalesce(nullif(s.title_override, ''), s.title),
                           'text', coalesce(nullif(s.body_override, ''), s.body),
                           'link', coalesce(nullif(s.url_override, ''), s.url),
                           'media', s.media) ORDER BY s.position), '[]'::json)
                    FROM rendition_segments s WHERE s.rendition_id = r.id) AS parts`,
      [limit, this.claims.owner, this.config.DELIVERY_LEASE_MS, this.claims.inFlightIds],
    );
  }

  /** How long to sleep: until the next future due time, at most one poll interval. */
  private async untilNextDue(poll: number): Promise<number> {
    const [next] = await preparedQuery<DueRow>(
      this.dataSource,
      'publishing.delivery.next-due',
      `SELECT next_action_at AS at FROM renditions WHERE next_action_at > now() ORDER BY next_action_at LIMIT 1`,
      [],
    );
    return untilNextDue(next?.at, poll);
  }

  /**
   * The accounts of a claimed batch in one read (a burst claims many renditions of few accounts). A hint only: an
   * account missing from it (gone, or the read failed) is read again when its rendition is sent.
   */
  private async accountsOf(rows: Claimed[]): Promise<Map<string, SocialAccountEntity>> {
    const ids = [...new Set(rows.filter((row) => row.delivery_state === 'queued').map((row) => row.social_account_id))];
    if (ids.length === 0) return new Map();
    try {
      return await this.accounts.rows(ids);
    } catch (error) {
      // Never a reason to leave claimed renditions unstarted (they would wait for their lease to run out).
      this.logger.warn({ err: error }, "could not read the claimed renditions' accounts; each is read when it is sent");
      return new Map();
    }
  }

  /** `accountRow`: the rendition's account as read with its claim (`accountsOf`), for its first send. */
  private start(row: Claimed, accountRow?: SocialAccountEntity): void {
    const entry = { lease: row.lease, leaseUntil: Date.now() + this.config.DELIVERY_LEASE_MS, abort: new AbortController() };
    this.claims.run(row.id, entry, () =>
      this.process(row, entry.abort.signal, accountRow).catch((error: unknown) =>
        this.logger.error(
          { err: error, rendition_id: row.id },
          'delivery failed unexpectedly; the lease will run out and another try reconciles',
        ),
      ),
    );
  }

  private async process(row: Claimed, signal: AbortSignal, accountRow?: SocialAccountEntity): Promise<void> {
    switch (row.delivery_state) {
      case 'queued':
        return this.send(row, signal, accountRow);
      case 'submitted': {
        // The replica that submitted it stopped renewing its lease (it died, or could not reach the database): nobody
        // knows whether the network has it, and that replica's call may still land until its start + the call's bound.
        const started = row.delivery_current_attempt_created_at?.getTime() ?? 0;
        const afterMs = Math.max(0, started + this.publishBoundMs() - Date.now());
        await this.markAmbiguous(
          row,
          row.delivery_current_attempt_id,
          {
            outcome: 'ambiguous',
            code: 'delivery_interrupted',
            message: 'The replica delivering it stopped during the call; asking the network whether the post exists.',
            httpStatus: 0,
          },
          afterMs,
        );
        if (afterMs === 0) await this.reconcile(row, signal);
        return;
      }
      case 'ambiguous':
        return this.reconcile(row, signal);
      default:
        await this.dataSource.query(
          `UPDATE renditions SET next_action_at = NULL, lease_owner = '', lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2`,
          [row.id, row.lease],
        );
    }
  }

  /** One attempt: committed as `submitted`, then the network, then the outcome. */
  private async send(row: Claimed, signal: AbortSignal, accountRow?: SocialAccountEntity): Promise<void> {
    let loaded: Awaited<ReturnType<DeliveryWorker['load']>>;
    try {
      loaded = await this.load(row, accountRow);
    } catch (error) {
      // ProviderAccounts renews grants and reports what went wrong as a DeliveryError (never a ProviderError:
      // it classifies those itself). Caught as ProviderError before, a refused renewal escaped as "unexpected"
      // and the rendition was claimed again each lease, forever; so it is matched as ProviderAccounts throws it.
      if (error instanceof DeliveryError && error.failure.outcome === 'rejected') {
        const { failure } = error;
        // The network refused to renew the grant (the account is now reconnect_required): the account must be reconnected.
        if (failure.code === 'provider_auth_rejected') {
          return this.fail(
            row,
            null,
            'auth',
            {
              code: 'account_reconnect_required',
              message: "The network refused the account's grant; reconnect the account.",
              httpStatus: 0,
            },
            'rejected',
          );
        }
        // E.g. no provider app can renew it (provider_not_configured): the reason as it is.
        return this.fail(row, null, failure.kind, failure, 'rejected');
      }
      if (error instanceof DeliveryError) {
        // The network could not be asked for a fresh grant: try again later; nothing was sent, so no attempt is counted.
        this.logger.warn({ err: error, rendition_id: row.id }, 'could not get the account ready for delivery; trying again later');
        this.counted('deferred');
        await this.dataSource.query(
          `UPDATE renditions SET next_action_at = now() + make_interval(secs => $3::int / 1000.0), lease_owner = '', lease_expires_at = NULL
            WHERE id = $1 AND lease_owner = $2`,
          [row.id, row.lease, this.config.DELIVERY_RETRY_BASE_MS * 8],
        );
        return;
      }
      throw error;
    }
    if (!loaded) return;
    const { account, post } = loaded;
    const attached = row.parts.map((part) => attachmentsOf(part.media));
    let mediaItems = new Map<string, ResolvedMedia>();
    if (attached.some((list) => list.length > 0)) {
      const ready = await this.mediaReady(row, attached);
      if (!ready) return;
      mediaItems = ready;
    }
    if (row.round_attempts >= MAX_DELIVERY_ATTEMPTS) {
      // Recorded on the rendition only: the previous attempt (reconciled, found missing) keeps its own outcome.
      return this.fail(
        row,
        null,
        'transient',
        { code: 'retries_exhausted', message: 'No attempts left.', httpStatus: 0 },
        'retries_exhausted',
      );
    }
    const attemptId = uuidv7();
    const attempt = row.delivery_current_attempt_number + 1;
    const startedAt = new Date();
    const submitted = await this.submitting.add(row.publication_id, { row, attemptId, attempt, startedAt });
    if (!submitted) return this.logLeftAlone(row);
    const current: Claimed = {
      ...row,
      delivery_state: 'submitted',
      delivery_current_attempt_id: attemptId,
      delivery_current_attempt_number: attempt,
      delivery_current_attempt_created_at: startedAt,
      round_attempts: row.round_attempts + 1,
    };
    let published: PublishedPost;
    try {
      // Read (and images re-encoded for the network) within the attempt: a storage outage is retried with the delivery.
      for (const [index, part] of post.parts.entries()) part.media = await this.media.prepare(row.platform, attached[index], mediaItems);
      const mediaBytes = post.parts.reduce((sum, part) => sum + part.media.reduce((bytes, media) => bytes + media.size, 0), 0);
      // Uploads take their time: a large video may stream at as little as MEDIA_UPLOAD_MIN_RATE.
      current.publish_bound_ms = this.publishBoundMs() + Math.ceil(mediaBytes / MEDIA_UPLOAD_MIN_RATE) * 1000;
      published = await this.publish(account, post, signal, current.publish_bound_ms);
    } catch (error) {
      const failure: DeliveryFailure =
        error instanceof DeliveryError
          ? error.failure
          : // Anything else may have happened after the request left: never resend blindly.
            {
              outcome: 'ambiguous',
              code: 'delivery_outcome_unknown',
              message: 'The call to the network ended without a usable answer.',
              httpStatus: 0,
            };
      if (!(error instanceof DeliveryError))
        this.logger.warn({ err: error, rendition_id: row.id }, 'publish threw something other than a DeliveryError: ambiguous');
      return this.afterFailure(current, attemptId, failure, signal);
    }
    await this.goLive(current, attemptId, published, false);
  }

  /**
   * The library items of every attachment, when all can be sent now. Otherwise the rendition is handled here
   * and null is answered: an item gone from the library → rejected `media_not_found`; an item still being
   * analysed → back to the queue without an attempt (nothing was sent), until MEDIA_ANALYSIS_WAIT_MS from the
   * first try, then failed `media_not_ready`; the media service unreachable → tried again later, no attempt counted.
   */
  private async mediaReady(row: Claimed, attached: AttachedMedia[][]): Promise<Map<string, ResolvedMedia> | null> {
    const ids = attached.flat().map((entry) => entry.media_id);
    let items: Map<string, ResolvedMedia>;
    try {
      items = await this.library.resolve(row.workspace_id, ids);
    } catch (error) {
      this.logger.warn(
        { err: error, rendition_id: row.id },
        "could not ask the media library about the rendition's media; trying again later",
      );
      await this.requeueWithoutAttempt(row, this.config.DELIVERY_RETRY_BASE_MS * 4);
      return null;
    }
    const missing = ids.filter((id) => items.get(id)?.status !== 'ready');
    if (missing.length > 0) {
      const verb = missing.length === 1 ? 'is' : 'are';
      const message = `Media ${[...new Set(missing)].join(', ')} ${verb} no longer ready in the workspace's library.`;
      await this.fail(row, null, 'validation', { code: 'media_not_found', message, httpStatus: 0 }, 'rejected');
      return null;
    }
    if (!ids.some((id) => stillAnalysing(items.get(id)!))) return items;
    const since = row.media_waiting_since?.getTime() ?? Date.now();
    if (Date.now() - since >= MEDIA_ANALYSIS_WAIT_MS) {
      const message = `The rendition's media were still being analysed ${MEDIA_ANALYSIS_WAIT_MS / 60_000} minutes after its first try.`;
      await this.fail(row, null, 'validation', { code: 'media_not_ready', message, httpStatus: 0 }, 'rejected');
      return null;
    }
    await this.requeueWithoutAttempt(row, MEDIA_ANALYSIS_POLL_MS, true);
    return null;
  }

  /** Back to the queue in `delayMs` (lease released) without counting an attempt; `waitingForMedia` starts the media wait's clock. */
  private async requeueWithoutAttempt(row: Claimed, delayMs: number, waitingForMedia = false): Promise<void> {
    this.counted('deferred');
    await this.dataSource.query(
      `UPDATE renditions SET next_action_at = now() + make_interval(secs => $3::int / 1000.0), lease_owner = '', lease_expires_at = NULL,
              media_waiting_since = CASE WHEN $4::boolean THEN coalesce(media_waiting_since, now()) ELSE media_waiting_since END
        WHERE id = $1 AND lease_owner = $2`,
      [row.id, row.lease, delayMs, waitingForMedia],
    );
  }

  private async afterFailure(row: Claimed, attemptId: string, failure: DeliveryFailure, signal: AbortSignal): Promise<void> {
    if (failure.outcome === 'rejected') return this.fail(row, attemptId, failure.kind, failure, 'rejected');
    if (failure.outcome === 'ambiguous') {
      // A call given up on (timed out, or aborted when the lease could not be renewed) may still land: reconcile once it cannot.
      const givenUp = failure.code === 'delivery_call_timeout' || failure.code === 'delivery_lease_lost';
      const started = row.delivery_current_attempt_created_at?.getTime() ?? Date.now();
      const afterMs = givenUp
        ? Math.max(this.config.DELIVERY_LEASE_MS, started + (row.publish_bound_ms ?? this.publishBoundMs()) - Date.now())
        : 0;
      await this.markAmbiguous(row, attemptId, failure, afterMs);
      if (afterMs === 0) await this.reconcile({ ...row, delivery_state: 'ambiguous' }, signal);
      return;
    }
    const delay = retryDelayMs(row.round_attempts, this.config.DELIVERY_RETRY_BASE_MS, failure.retryAfterMs);
    if (delay === null) return this.fail(row, attemptId, 'transient', failure, 'retries_exhausted');
    await this.settle(row, {
      counted: 'retry',
      attempt: { id: attemptId, outcome: 'retry', failure },
      set: `status = 'scheduled', delivery_state = 'queued', delivery_recovery_action = 'retry',
            error_code = $3, error_kind = 'transient', error_message = $5, error_http_status = $4, error_action = 'retry',
            error_retryable = true, error_retry_at = now() + make_interval(secs => $6::int / 1000.0),
            next_action_at = now() + make_interval(secs => $6::int / 1000.0)`,
      params: [failure.code, failure.httpStatus, failure.message, delay],
      segments: 'scheduled',
    });
  }

  /** The answer was lost: `ambiguous`, to be reconciled `afterMs` from now. */
  private async markAmbiguous(row: Claimed, attemptId: string | null, failure: DeliveryFailure, afterMs = 0): Promise<void> {
    const at = new Date(Date.now() + afterMs);
    const marked = await this.inTransaction(row, async (db) => {
      if (attemptId) await this.finishAttempt(db, attemptId, 'ambiguous', failure);
      const updated = await changedRows<RenditionIdRow>(
        db,
        `UPDATE renditions SET delivery_state = 'ambiguous', delivery_recovery_action = 'reconcile',
                error_code = $3, error_message = $5, error_http_status = $4,
                error_kind = '', error_action = '', error_retryable = false, delivery_next_reconciliation_at = $6, next_action_at = $6,
                lease_expires_at = CASE WHEN $7::boolean THEN NULL ELSE lease_expires_at END,
                lease_owner = CASE WHEN $7::boolean THEN '' ELSE lease_owner END, updated_at = now()
          WHERE id = $1 AND lease_owner = $2 RETURNING id`,
        [row.id, row.lease, failure.code, failure.httpStatus, failure.message, at, afterMs > 0],
      );
      if (updated.length === 0) throw new NotOurs();
    });
    if (marked) this.counted('ambiguous');
  }

  /**
   * Asks the network whether the attempt in doubt created the post: found →
   * live; certainly not → sent again (a new attempt); cannot tell → manual
   * resolution. A network that cannot be asked is asked again later.
   */
  private async reconcile(row: Claimed, signal: AbortSignal): Promise<void> {
    const since = row.delivery_current_attempt_created_at ?? new Date(0);
    let found: PublishedPost | null | 'unknown';
    try {
      // Inside the try: getting the account may renew its grant, and a renewal that fails (a DeliveryError
      // from ProviderAccounts) means the network cannot be asked now, not an unexpected error to loop on.
      const loaded = await this.load(row);
      if (!loaded) return;
      for (const [index, part] of loaded.post.parts.entries()) part.media = countedMedia(attachmentsOf(row.parts[index]?.media));
      loaded.post.ownedElsewhere = await this.ownedElsewhere(row);
      const provider = this.providers.get(row.platform);
      found = provider ? await provider.findPost(loaded.account, loaded.post, since) : 'unknown';
    } catch (error) {
      const failures = row.reconcile_failures + 1;
      this.logger.warn({ err: error, rendition_id: row.id, failures }, 'reconciliation could not ask the network');
      if (failures >= MAX_RECONCILE_FAILURES) return this.needsAttention(row);
      this.counted('deferred');
      const at = new Date(Date.now() + (retryDelayMs(Math.min(failures, 4), this.config.DELIVERY_RETRY_BASE_MS, undefined) ?? 60_000));
      await this.dataSource.query(
        `UPDATE renditions SET reconcile_failures = $3, delivery_next_reconciliation_at = $4, next_action_at = $4, lease_owner = '',
                              lease_expires_at = NULL
          WHERE id = $1 AND lease_owner = $2`,
        [row.id, row.lease, failures, at],
      );
      return;
    }
    if (found === 'unknown') return this.needsAttention(row);
    if (found) return this.goLive(row, row.delivery_current_attempt_id, found, true);
    // The network says for certain it has no such post: sending again is safe.
    const requeued = await this.inTransaction(row, async (db) => {
      const updated = await changedRows<RenditionIdRow>(
        db,
        `UPDATE renditions SET status = 'scheduled', delivery_state = 'queued', delivery_recovery_action = 'none',
                delivery_last_reconciled_at = now(), delivery_next_reconciliation_at = NULL, updated_at = now()
          WHERE id = $1 AND lease_owner = $2 RETURNING id`,
        [row.id, row.lease],
      );
      if (updated.length === 0) throw new NotOurs();
    });
    if (requeued) await this.send({ ...row, delivery_state: 'queued' }, signal);
  }

  /**
   * The attempts of one publication's renditions, committed as `submitted` in one statement (atomic on its own): each
   * rendition only while it is ours and queued, with its attempt and segments, and the publication's start. Locks as
   * cancel and go-live take them, publication before renditions, so none of them deadlock: `shared` and `unstarted` are
   * evaluated before any rendition row is touched (r's condition reads them). The statement holds the publication FOR
   * KEY SHARE (the attempts' foreign key takes it anyway), so it goes on beside the publication's outcomes and cancel
   * (FOR NO KEY UPDATE; each rendition's row settles between them); only while the publication is not yet marked
   * publishing does it also hold FOR NO KEY UPDATE (the lock of that UPDATE), and so wait for them. Answers, per item,
   * whether it was submitted.
   */
  private async submitTogether(publicationId: string, items: Submitting[]): Promise<boolean[]> {
    // Renditions are named by id (`= ANY`), then joined to their values: joined directly, the generic plan of a named
    // statement may read the whole table to match them (docs/performance.md).
    const submitted = await preparedQuery<RenditionIdRow>(
      this.dataSource,
      'publishing.delivery.submit',
      `WITH shared AS (SELECT id FROM publications WHERE id = $1 FOR KEY SHARE),
       unstarted AS (
         SELECT id FROM publications WHERE id = $1 AND (status <> 'publishing' OR actual_run_at IS NULL) FOR NO KEY UPDATE),
       asked AS (
         SELECT * FROM unnest($2::uuid[], $3::text[], $4::uuid[], $5::int[], $6::timestamptz[])
                  AS q (id, lease, attempt_id, attempt, started_at)),
       r AS (
         UPDATE renditions r SET status = 'publishing', delivery_state = 'submitted', delivery_recovery_action = 'none',
                delivery_current_attempt_id = q.attempt_id, delivery_current_attempt_number = q.attempt,
                delivery_current_attempt_created_at = q.started_at, round_attempts = r.round_attempts + 1, updated_at = now()
           FROM asked q
          WHERE r.id = ANY($2::uuid[]) AND r.id = q.id AND r.lease_owner = q.lease AND r.delivery_state = 'queued'
            AND (SELECT count(*) FROM shared) + (SELECT count(*) FROM unstarted) >= 0
          RETURNING r.id, r.publication_id, q.attempt_id, q.attempt, q.started_at),
       a AS (
         INSERT INTO delivery_attempts (id, rendition_id, publication_id, attempt, started_at, outcome)
         SELECT attempt_id, id, publication_id, attempt, started_at, 'submitted' FROM r),
       s AS (UPDATE rendition_segments SET status = 'publishing' WHERE rendition_id IN (SELECT id FROM r)),
       p AS (
         UPDATE publications SET status = 'publishing', actual_run_at = coalesce(actual_run_at, (SELECT min(started_at) FROM r)),
                updated_at = now()
          WHERE id IN (SELECT id FROM unstarted) AND id IN (SELECT publication_id FROM r))
       SELECT id FROM r`,
      [
        publicationId,
        items.map(({ row }) => row.id),
        items.map(({ row }) => row.lease),
        items.map(({ attemptId }) => attemptId),
        items.map(({ attempt }) => attempt),
        items.map(({ startedAt }) => startedAt.toISOString()),
      ],
    );
    const ours = new Set(submitted.map(({ id }) => id));
    return items.map(({ row }) => ours.has(row.id));
  }

  /** Live: recorded with the other renditions of its publication that went live meanwhile (`goLiveTogether`). */
  private async goLive(row: Claimed, attemptId: string | null, published: PublishedPost, reconciled: boolean): Promise<void> {
    const live = await this.goingLive.add(row.publication_id, { row, attemptId, published, reconciled });
    if (live) this.counted('published');
    else this.logLeftAlone(row);
  }

  /**
   * The renditions of one publication that went live, in one transaction under the publication's lock: each that is
   * still ours (its lease) is live with its segments and attempt, then its event, then the publication's derived status
   * (and its outcome's event, after the renditions' events). A publication's renditions are delivered side by side and
   * finish together: one by one, each took the lock, five statements and a commit, while the others waited on the lock.
   * Answers, per item, whether it went live.
   */
  private async goLiveTogether(publicationId: string, items: GoingLive[]): Promise<boolean[]> {
    return this.dataSource.transaction(async (db) => {
      const publication = await lockPublication(db, publicationId);
      if (!publication) return items.map(() => false);
      const parts = items.map(({ published }) => (published.parts.length > 0 ? published.parts : [published]));
      const wentLive = await preparedQuery<RenditionIdRow>(
        db,
        'publishing.delivery.go-live',
        `WITH live AS (
           SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::uuid[])
                    AS l (id, lease, external_id, external_url, reconciled, attempt_id)),
         r AS (
           UPDATE renditions r SET status = 'published', delivery_state = 'live', delivery_recovery_action = 'none',
                external_id = l.external_id, external_url = l.external_url, delivery_terminal_reason = '', published_at = now(),
                error_code = '', error_kind = '', error_message = '', error_http_status = 0, error_action = '', error_retryable = false,
                error_retry_at = NULL, delivery_next_reconciliation_at = NULL,
                delivery_last_reconciled_at = CASE WHEN l.reconciled THEN now() ELSE r.delivery_last_reconciled_at END,
                next_action_at = NULL, media_waiting_since = NULL, lease_owner = '', lease_expires_at = NULL, updated_at = now()
             FROM live l WHERE r.id = l.id AND r.lease_owner = l.lease RETURNING r.id),
         s AS (
           UPDATE rendition_segments s SET status = 'published', external_id = p.external_id, external_url = p.external_url
             FROM unnest($7::uuid[], $8::int[], $9::text[], $10::text[]) AS p (rendition_id, position, external_id, external_url)
            WHERE s.rendition_id = p.rendition_id AND s.position = p.position AND p.rendition_id IN (SELECT id FROM r)),
         a AS (
           UPDATE delivery_attempts d SET finished_at = now(), outcome = 'live', error_code = '', error_message = '', http_status = 0
             FROM live l WHERE d.id = l.attempt_id AND NOT l.reconciled AND l.id IN (SELECT id FROM r))
         SELECT id FROM r`,
        [
          items.map(({ row }) => row.id),
          items.map(({ row }) => row.lease),
          items.map(({ published }) => published.externalId),
          items.map(({ published }) => published.externalUrl),
          items.map(({ reconciled }) => reconciled),
          items.map(({ attemptId }) => attemptId),
          ...segmentColumns(items, parts),
        ],
      );
      const live = new Set(wentLive.map(({ id }) => id));
      // The renditions' events first: the publication's outcome (if these were its last renditions) follows them in the outbox.
      await enqueueEvents(
        db,
        items
          .filter(({ row }) => live.has(row.id))
          .map(({ row, published }) => ({
            subject: RENDITION_PUBLISHED_SUBJECT,
            payload: {
              ...this.eventBase(row, publication.workspace_id),
              external_id: published.externalId,
              external_url: published.externalUrl,
            } satisfies RenditionPublishedEvent,
          })),
      );
      if (live.size > 0) await deriveStatus(db, publicationId, true);
      return items.map(({ row }) => live.has(row.id));
    });
  }

  /** Ends the rendition `failed` (rejected, or its attempts spent). */
  private async fail(
    row: Claimed,
    attemptId: string | null,
    kind: string,
    failure: { code: string; message: string; httpStatus: number },
    terminalReason: 'rejected' | 'retries_exhausted',
  ): Promise<void> {
    const action = errorActionFor(kind);
    await this.settle(row, {
      counted: terminalReason,
      attempt: attemptId ? { id: attemptId, outcome: terminalReason === 'rejected' ? 'rejected' : 'retry', failure } : undefined,
      set: `status = 'failed', delivery_state = 'rejected', delivery_recovery_action = 'none', delivery_terminal_reason = $6,
            error_code = $3, error_kind = $4, error_message = $7, error_http_status = $5, error_action = $8,
            error_retryable = false, error_retry_at = NULL, next_action_at = NULL`,
      params: [failure.code, kind, failure.httpStatus, terminalReason, failure.message, action],
      segments: 'failed',
      // The network refused the account's authorization: the account must be reconnected (its owner told once).
      also: kind === 'auth' && attemptId ? (db) => markReconnectRequired(db, row.social_account_id, 'grant_rejected') : undefined,
      event: {
        subject: RENDITION_FAILED_SUBJECT,
        payload: {
          error_code: failure.code,
          error_kind: kind,
          error_message: failure.message,
          error_action: action,
          terminal_reason: terminalReason,
        },
      },
    });
  }

  /** Nobody can tell whether the network has it: `manual_resolution`, and a person is told. */
  private async needsAttention(row: Claimed): Promise<void> {
    const code = 'delivery_outcome_unknown';
    const message = 'The network cannot tell whether the post was created; check the account and retry if it is missing.';
    await this.settle(row, {
      counted: 'needs_attention',
      set: `status = 'failed', delivery_state = 'manual_resolution', delivery_recovery_action = 'manual_resolution',
            delivery_terminal_reason = 'outcome_unknown', delivery_last_reconciled_at = now(), delivery_next_reconciliation_at = NULL,
            error_code = $3, error_message = $4, error_kind = 'unknown', error_action = 'check_network',
            error_retryable = false, next_action_at = NULL`,
      params: [code, message],
      segments: 'failed',
      event: {
        subject: RENDITION_NEEDS_ATTENTION_SUBJECT,
        payload: { error_code: code, error_message: message, error_action: 'check_network' },
      },
    });
  }

  /**
   * One outcome that gives the rendition up (lease released), in one
   * transaction under the claim's lease: the attempt finished, the rendition
   * (`set`, parameters from $3; nothing at all when the lease is no longer
   * this claim's), its segments' status, then (with an event) the
   * publication's derived status and the durable event.
   */
  private async settle(
    row: Claimed,
    outcome: {
      counted: DeliveryOutcome;
      attempt?: { id: string; outcome: AttemptOutcome; failure: { code: string; message: string; httpStatus: number } };
      set: string;
      params: unknown[];
      segments: Extract<PublicationStatus, 'scheduled' | 'failed'>;
      also?: (db: EntityManager) => Promise<void>;
      event?:
        | { subject: typeof RENDITION_FAILED_SUBJECT; payload: Omit<RenditionFailedEvent, keyof RenditionEventBase> }
        | { subject: typeof RENDITION_NEEDS_ATTENTION_SUBJECT; payload: Omit<RenditionNeedsAttentionEvent, keyof RenditionEventBase> };
    },
  ): Promise<void> {
    const settled = await this.inTransaction(row, async (db, workspaceId) => {
      if (outcome.attempt) await this.finishAttempt(db, outcome.attempt.id, outcome.attempt.outcome, outcome.attempt.failure);
      const updated = await changedRows<RenditionIdRow>(
        db,
        `UPDATE renditions SET ${outcome.set}, media_waiting_since = NULL, lease_owner = '', lease_expires_at = NULL, updated_at = now()
          WHERE id = $1 AND lease_owner = $2 RETURNING id`,
        [row.id, row.lease, ...outcome.params],
      );
      if (updated.length === 0) throw new NotOurs();
      await db.query(`UPDATE rendition_segments SET status = $2 WHERE rendition_id = $1`, [row.id, outcome.segments]);
      await outcome.also?.(db);
      if (!outcome.event) return;
      await enqueueEvent(db, outcome.event.subject, { ...this.eventBase(row, workspaceId), ...outcome.event.payload });
      await deriveStatus(db, row.publication_id, true);
    });
    if (settled) this.counted(outcome.counted);
  }

  /**
   * Runs `work` in a transaction that first locks the publication (always
   * publication before rendition, as cancel and disconnect do, so they never
   * deadlock). False when the rendition is no longer ours (cancelled,
   * re-rendered, its account disconnected): nothing is written.
   */
  private async inTransaction(row: Claimed, work: (db: EntityManager, workspaceId: string) => Promise<void>): Promise<boolean> {
    try {
      await this.dataSource.transaction(async (db) => {
        const publication = await lockPublication(db, row.publication_id);
        if (!publication) throw new NotOurs();
        await work(db, publication.workspace_id);
      });
      return true;
    } catch (error) {
      if (!(error instanceof NotOurs)) throw error;
      this.logLeftAlone(row);
      return false;
    }
  }

  private logLeftAlone(row: Claimed): void {
    this.logger.info({ rendition_id: row.id }, 'rendition no longer ours (cancelled, re-rendered or its account removed); left alone');
  }

  private async finishAttempt(
    db: EntityManager,
    attemptId: string,
    outcome: AttemptOutcome,
    failure?: { code: string; message: string; httpStatus: number },
  ): Promise<void> {
    await db.query(
      `UPDATE delivery_attempts SET finished_at = now(), outcome = $2, error_code = $3, error_message = $4, http_status = $5 WHERE id = $1`,
      [attemptId, outcome, failure?.code ?? '', failure?.message ?? '', failure?.httpStatus ?? 0],
    );
  }

  /**
   * The account through ProviderAccounts (the one way to a grant; `read`: its row as read with the claim) and the post
   * from the rendition's segments; null when either is gone.
   */
  private async load(row: Claimed, read?: SocialAccountEntity): Promise<{ account: ProviderAccount; post: OutgoingPost } | null> {
    const account = read ? await this.accounts.ready(read) : await this.accounts.find(row.social_account_id);
    if (!account || row.parts.length === 0) {
      this.logger.info({ rendition_id: row.id }, 'rendition or its account is gone; nothing to deliver');
      return null;
    }
    return {
      account,
      // The marker is the rendition's id: stable across attempts, so findPost can tell whether a lost call created the post.
      post: {
        marker: row.id,
        parts: row.parts.map((part) => ({ title: part.title, text: part.text, link: part.link, media: [] })),
        settings: row.settings,
      },
    };
  }

  /**
   * The network call, bounded generously (a hung call must not hold a slot
   * forever); a call that outlives the bound is ambiguous and reconciled only
   * after another lease length, when it can no longer land.
   */
  private async publish(
    account: ProviderAccount,
    post: OutgoingPost,
    signal: AbortSignal,
    boundMs = this.publishBoundMs(),
  ): Promise<PublishedPost> {
    const provider = this.providers.get(account.platform);
    if (!provider) {
      throw new DeliveryError({
        outcome: 'rejected',
        kind: 'capability',
        code: 'provider_capability_unavailable',
        message: `No adapter publishes to ${account.platform}.`,
        httpStatus: 0,
      });
    }
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new DeliveryError({
              outcome: 'ambiguous',
              code: 'delivery_call_timeout',
              message: 'The network did not answer in time.',
              httpStatus: 0,
            }),
          ),
        boundMs,
      );
      onAbort = () =>
        reject(
          new DeliveryError({
            outcome: 'ambiguous',
            code: 'delivery_lease_lost',
            message: 'The delivery lease could not be renewed; the call was abandoned.',
            httpStatus: 0,
          }),
        );
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([provider.publish(account, post, signal), bound]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * External ids of the account's posts that other renditions already own (every thread part), from the
   * last day: findPost must not take one of them for this rendition's post (Mastodon matches by text).
   */
  private async ownedElsewhere(row: Claimed): Promise<string[]> {
    const rows = await this.dataSource.query<OwnedPostRow[]>(
      `SELECT s.external_id FROM rendition_segments s JOIN renditions r ON r.id = s.rendition_id
        WHERE r.social_account_id = $1 AND r.id <> $2 AND s.external_id <> '' AND r.updated_at > now() - interval '1 day'`,
      [row.social_account_id, row.id],
    );
    return rows.map((owned) => owned.external_id);
  }

  /** How long one publish call may take; past it (from the attempt's start) it can no longer land. */
  private publishBoundMs(): number {
    return Math.max(this.config.PROVIDER_TIMEOUT_MS * 5, 30_000);
  }

  private eventBase(row: Claimed, workspaceId: string): RenditionEventBase {
    return {
      workspace_id: workspaceId,
      publication_id: row.publication_id,
      rendition_id: row.id,
      social_account_id: row.social_account_id,
      platform: row.platform,
      attempt: row.delivery_current_attempt_number,
      occurred_at: new Date().toISOString(),
    };
  }

  /**
   * Keeps the leases of the calls in progress alive; a replica that stops
   * renewing (it died) loses them. A call whose lease was taken over, or
   * would run out before the next renewal because renewals fail, is aborted:
   * whoever claims the rendition next reconciles it once the call can no
   * longer land.
   */
  private async renewLeases(entries: Array<[string, InFlight]>): Promise<void> {
    if (entries.length === 0) return;
    const sentAt = Date.now();
    const interval = this.claims.renewEveryMs;
    try {
      const renewed = await changedRows<RenditionIdRow>(
        this.dataSource,
        `UPDATE renditions r SET lease_expires_at = now() + make_interval(secs => $3::int / 1000.0)
           FROM unnest($1::uuid[], $2::text[]) AS l (id, lease) WHERE r.id = l.id AND r.lease_owner = l.lease RETURNING r.id`,
        [entries.map(([id]) => id), entries.map(([, entry]) => entry.lease), this.config.DELIVERY_LEASE_MS],
      );
      const kept = new Set(renewed.map((row) => row.id));
      for (const [id, entry] of entries) {
        if (kept.has(id)) entry.leaseUntil = sentAt + this.config.DELIVERY_LEASE_MS;
        else if (this.claims.inFlight.get(id) === entry) entry.abort.abort();
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'could not renew delivery leases');
      for (const [, entry] of entries) if (entry.leaseUntil - Date.now() < interval) entry.abort.abort();
    }
  }
}

/** The go-live statement's segment columns ($7 to $10): each item's parts by rendition and position. */
function segmentColumns(items: GoingLive[], parts: Array<Array<{ externalId: string; externalUrl: string }>>): unknown[] {
  const renditionIds: string[] = [];
  const positions: number[] = [];
  const externalIds: string[] = [];
  const externalUrls: string[] = [];
  items.forEach(({ row }, index) =>
    parts[index].forEach((part, position) => {
      renditionIds.push(row.id);
      positions.push(position);
      externalIds.push(part.externalId);
      externalUrls.push(part.externalUrl);
    }),
  );
  return [renditionIds, positions, externalIds, externalUrls];
}

/**
 * Locks the publication before an outcome touches its renditions (the order cancel and submit take). FOR NO KEY
 * UPDATE: outcomes, cancel and re-render (whose UPDATE of the publication takes the same lock) wait for each other,
 * while submits, which hold it FOR KEY SHARE, go on beside an outcome (under FOR UPDATE they queued behind it).
 */
async function lockPublication(db: EntityManager, publicationId: string): Promise<LockedPublicationRow | undefined> {
  const [publication] = await preparedQuery<LockedPublicationRow>(
    db,
    'publishing.delivery.lock-publication',
    `SELECT workspace_id FROM publications WHERE id = $1 FOR NO KEY UPDATE`,
    [publicationId],
  );
  return publication;
}
