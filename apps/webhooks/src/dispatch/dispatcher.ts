import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { WEBHOOK_DEACTIVATED_SUBJECT, type WebhookDeactivatedEvent } from '@social/contracts';
import {
  changedRows,
  ClaimLoop,
  enqueueEvent,
  Metrics,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  untilNextDue,
  watchJobQueue,
} from '@social/platform';
import type { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import type { WebhooksConfig } from '../config.js';
import { deliveriesChannel } from '../deliveries/delivery.row.js';
import { WebhookSecrets } from '../subscriptions/webhook-secrets.js';
import { retryDelayMs } from './retry-schedule.js';
import { type AttemptResult, WebhookSender } from './sender.js';
import { signedHeaders } from './signature.js';

/** A claimed delivery with what its attempt needs. */
interface ClaimedDelivery {
  id: string;
  lease: string;
  attempts: number;
  max_attempts: number;
  event_id: string;
  body: string;
  webhook_id: string;
  workspace_id: string;
  url: string;
  secret: string;
  previous_secret: string;
  previous_secret_until: Date | null;
}

interface FailureStreakRow {
  failing_since: Date;
  url: string;
}

/**
 * Sends due deliveries: claims them with a lease (`FOR UPDATE SKIP LOCKED`, so replicas never send one
 * delivery twice at once), at most WEBHOOK_CONCURRENCY in flight per replica, woken by the NOTIFY of a new
 * or redelivered delivery. Per webhook and ordering key (a publication), a delivery waits until every earlier
 * event's delivery has had its first attempt: events arrive in order, and a failing one holds nothing back.
 */
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly claims: ClaimLoop;
  private readonly sender: WebhookSender;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: WebhookSecrets,
    @Inject(SERVICE_CONFIG) private readonly config: WebhooksConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Optional() @Inject(Metrics) metrics?: Metrics,
  ) {
    // Deliveries due now, waiting or being sent (through webhook_deliveries_due_idx).
    if (metrics) {
      watchJobQueue(
        metrics,
        'webhook_deliveries',
        dataSource,
        `SELECT count(*)::int AS depth FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()`,
      );
    }
    this.sender = new WebhookSender(config.WEBHOOK_ALLOWED_ORIGINS, config.WEBHOOK_TIMEOUT_MS);
    this.claims = new ClaimLoop(dataSource, {
      channelOf: deliveriesChannel,
      logger,
      who: 'webhook dispatcher',
      claimFailed: 'webhook dispatcher could not claim deliveries',
      pass: () => this.pass(),
    });
  }

  onApplicationBootstrap(): void {
    this.claims.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.claims.stop();
    await this.sender.close();
  }

  private async pass(): Promise<number | null> {
    const free = this.config.WEBHOOK_CONCURRENCY - this.claims.inFlight.size;
    // Claimed in batches (a quarter of the slots at least) while work is in flight: one claim per finished delivery
    // would spend the loop on claims under load. A finished delivery wakes the loop to look again.
    if (free <= 0 || (free < Math.ceil(this.config.WEBHOOK_CONCURRENCY / 4) && this.claims.inFlight.size > 0)) {
      return this.config.WEBHOOK_POLL_MS;
    }
    const claimed = await this.claim(free);
    for (const delivery of claimed) {
      this.claims.run(delivery.id, { lease: delivery.lease }, () =>
        this.attempt(delivery).catch((error: unknown) => {
          // The lease runs out and another pass tries again.
          this.logger.error({ err: error, delivery_id: delivery.id }, 'webhook delivery attempt could not be recorded');
        }),
      );
    }
    if (claimed.length === free) return null;
    const [next] = await this.dataSource.query<Array<{ at: Date | null }>>(
      `SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'`,
    );
    return untilNextDue(next?.at ? new Date(next.at) : null, this.config.WEBHOOK_POLL_MS);
  }

  private claim(limit: number): Promise<ClaimedDelivery[]> {
    const lease = `${this.claims.owner}:${Date.now()}`;
    // A CTE ending in SELECT: TypeORM answers its rows alone.
    return this.dataSource.query<ClaimedDelivery[]>(
      // The oldest due deliveries first, through the due index, then the order rule on those few only: a plan that
      // stays cheap whatever the table's statistics say (a bulk of new rows before ANALYZE made it quadratic).
      `WITH candidates AS (
         SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.active
          WHERE d.status = 'pending' AND d.next_attempt_at <= now()
            AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now())
            AND NOT (d.id = ANY($3::uuid[]))
          ORDER BY d.next_attempt_at, d.sequence
          LIMIT $2 * 4),
       due AS (
         SELECT d.id FROM webhook_deliveries d JOIN candidates c ON c.id = d.id
          WHERE d.status = 'pending' AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now())
            AND NOT EXISTS (
              SELECT 1 FROM webhook_deliveries e
               WHERE e.webhook_id = d.webhook_id AND e.ordering_key = d.ordering_key AND e.attempts = 0
                 AND e.status = 'pending' AND e.sequence < d.sequence)
          ORDER BY d.next_attempt_at, d.sequence
          LIMIT $2
          FOR UPDATE OF d SKIP LOCKED),
       claimed AS (
         UPDATE webhook_deliveries d SET lease = $1, lease_expires_at = now() + $4 * interval '1 millisecond'
           FROM due WHERE d.id = due.id
         RETURNING d.id, d.lease, d.attempts, d.max_attempts, d.event_id, d.webhook_id, d.workspace_id)
       SELECT c.*, e.body, w.url, w.secret, w.previous_secret, w.previous_secret_until
         FROM claimed c JOIN webhook_events e ON e.id = c.event_id JOIN webhooks w ON w.id = c.webhook_id`,
      [lease, limit, this.claims.inFlightIds, this.config.WEBHOOK_LEASE_MS],
    );
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const secrets = this.secrets.signing({ ...delivery, id: delivery.webhook_id });
    // A new timestamp per attempt (receivers refuse old ones); the id and the body stay the same.
    const headers = signedHeaders(secrets, delivery.event_id, new Date(), delivery.body);
    const result = await this.sender.send(delivery.url, headers, delivery.body);
    if (result.ok) await this.recordSuccess(delivery, result);
    else await this.dataSource.transaction((db) => this.recordFailure(db, delivery, result));
    // Failures are worth a line (a receiver down shows in the logs); successes only when debugging.
    const line = { delivery_id: delivery.id, webhook_id: delivery.webhook_id, status_code: result.statusCode, error: result.error };
    if (result.ok) this.logger.debug(line, 'webhook delivered');
    else this.logger.info(line, 'webhook delivery attempt failed');
  }

  /** Succeeded (if the lease is still ours), and the webhook's failure streak over: one statement, the hot path. */
  private async recordSuccess(delivery: ClaimedDelivery, result: AttemptResult): Promise<void> {
    await this.dataSource.query(
      `WITH d AS (
         UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, last_status_code = $3, last_error = '',
                next_attempt_at = NULL, lease = NULL, lease_expires_at = NULL
          WHERE id = $1 AND lease = $2 RETURNING webhook_id)
       UPDATE webhooks SET failing_since = NULL WHERE id IN (SELECT webhook_id FROM d) AND failing_since IS NOT NULL`,
      [delivery.id, delivery.lease, result.statusCode],
    );
  }

  /** The failed attempt (if the lease is still ours), its retry or its end; the failure streak, and deactivation after 3 days of it. */
  private async recordFailure(db: EntityManager, delivery: ClaimedDelivery, result: AttemptResult): Promise<void> {
    const attempt = delivery.attempts + 1;
    const delay = retryDelayMs(this.config.WEBHOOK_RETRY_SCHEDULE_MS, attempt, delivery.max_attempts, result.retryAfterMs);
    const updated = await changedRows<{ id: string }>(
      db,
      `UPDATE webhook_deliveries SET status = $3, attempts = attempts + 1, last_status_code = $4, last_error = $5,
              next_attempt_at = CASE WHEN $6::bigint IS NULL THEN NULL ELSE now() + $6 * interval '1 millisecond' END,
              lease = NULL, lease_expires_at = NULL
        WHERE id = $1 AND lease = $2 RETURNING id`,
      [delivery.id, delivery.lease, delay === null ? 'failed' : 'pending', result.statusCode, result.error, delay],
    );
    if (updated.length === 0) return;
    const [streak] = await changedRows<FailureStreakRow>(
      db,
      `UPDATE webhooks SET failing_since = coalesce(failing_since, now()) WHERE id = $1 AND active RETURNING failing_since, url`,
      [delivery.webhook_id],
    );
    if (streak && Date.now() - new Date(streak.failing_since).getTime() >= this.config.WEBHOOK_DEACTIVATE_AFTER_MS) {
      await this.deactivate(db, delivery, streak);
    }
  }

  /** Off, its pending deliveries given up, and the workspace's admins told (through notifications). */
  private async deactivate(db: EntityManager, delivery: ClaimedDelivery, streak: FailureStreakRow): Promise<void> {
    await db.query(`UPDATE webhooks SET active = false, updated_at = now() WHERE id = $1`, [delivery.webhook_id]);
    await db.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL,
              last_error = CASE WHEN last_error = '' THEN 'the webhook was deactivated' ELSE last_error END
        WHERE webhook_id = $1 AND status = 'pending' AND id <> $2`,
      [delivery.webhook_id, delivery.id],
    );
    await db.query(`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = $1`, [delivery.id]);
    await enqueueEvent(db, WEBHOOK_DEACTIVATED_SUBJECT, {
      workspace_id: delivery.workspace_id,
      webhook_id: delivery.webhook_id,
      url: streak.url,
      failing_since: new Date(streak.failing_since).toISOString(),
      occurred_at: new Date().toISOString(),
    } satisfies WebhookDeactivatedEvent);
    this.logger.warn({ webhook_id: delivery.webhook_id }, 'webhook deactivated after its deliveries failed for too long');
  }
}
