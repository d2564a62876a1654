import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import {
  changedRows,
  ClaimLoop,
  type LeasedWork,
  Metrics,
  preparedQuery,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  untilNextDue,
  watchJobQueue,
} from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { InsightsConfig } from '../config.js';
import { DailyPlanner } from './daily-planner.js';
import { backoffAt, JobEnd, JobRunner } from './job-runner.js';
import type { ClaimedJobRow, SyncJobDueRow, SyncJobIdRow, SyncJobState } from './sync-job.row.js';
import { syncChannel } from './sync-jobs.js';

/** How long the worker lets jobs gather after a wake before it claims (`ClaimLoop`'s `gatherMs`). */
const SYNC_GATHER_MS = 100;

/**
 * The sync worker, one per insights replica. Due jobs are claimed in short
 * transactions (`FOR UPDATE SKIP LOCKED`, then a lease of their own), so
 * replicas share the work and never run the same job; the lease is renewed
 * while a job runs, and a job whose replica died is claimed again once its
 * lease has run out. A rate limit or an outage queues the job again at the
 * network's reset time; the dedupe index keeps one queued job per key.
 */
@Injectable()
export class SyncWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly claims: ClaimLoop;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: JobRunner,
    private readonly planner: DailyPlanner,
    @Inject(SERVICE_CONFIG) private readonly config: InsightsConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Optional() @Inject(Metrics) metrics?: Metrics,
  ) {
    // Jobs due now, waiting or running (through sync_jobs_due_idx).
    if (metrics) {
      watchJobQueue(
        metrics,
        'insights_sync_jobs',
        dataSource,
        `SELECT count(*)::int AS depth FROM sync_jobs WHERE state IN ('queued', 'running') AND run_at <= now()`,
      );
    }
    this.claims = new ClaimLoop(dataSource, {
      channelOf: syncChannel,
      logger,
      who: 'sync worker',
      claimFailed: 'sync worker could not claim jobs',
      pass: () => this.pass(),
      renew: { ms: config.INSIGHTS_LEASE_MS, leases: (entries) => this.renewLeases(entries) },
      // In a burst every published rendition queues a measurement with its own NOTIFY: claimed a few at a time, not one
      // claim (and one due-time read) each. Measurements are not due to the millisecond.
      gatherMs: SYNC_GATHER_MS,
    });
  }

  onApplicationBootstrap(): void {
    this.claims.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.claims.stop();
  }

  private async pass(): Promise<number> {
    const poll = this.config.INSIGHTS_POLL_MS;
    // Planning needs publishing; a planner that cannot reach it must not stop the claiming.
    await this.planner
      .planIfDue()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'daily sync planning failed; retrying shortly'));
    const free = this.config.INSIGHTS_CONCURRENCY - this.claims.inFlight.size;
    const rows = await this.claim(free);
    for (const row of rows) this.start(row);
    // In a burst every rendition queues a job: a finish claims again only after a full claim (more may be due); after a
    // short one, the next NOTIFY or due time brings the next pass (a claim and a due-time read fewer a job).
    this.claims.moreDue = free <= 0 || rows.length === free;
    return rows.length === 0 || rows.length < free ? this.untilNextDue(poll) : poll;
  }

  private async claim(limit: number): Promise<ClaimedJobRow[]> {
    if (limit <= 0) return [];
    // Named: every pass runs it, and planning it cost more than running it.
    return preparedQuery<ClaimedJobRow>(
      this.dataSource,
      'insights.sync.claim',
      // Two index walks that stop where the due rows end (a single OR walked every future job), then locked and checked
      // again by id; twice the limit of candidates, so another replica's locks leave some to take. The candidates are
      // looked up by id: joined, the generic plan read every due job (a backlog of thousands in a burst) to match them.
      `WITH candidates AS (
         (SELECT id FROM sync_jobs WHERE state = 'queued' AND run_at <= now() ORDER BY run_at LIMIT $1 * 2)
         UNION ALL
         (SELECT id FROM sync_jobs WHERE state = 'running' AND lease_expires_at < now() AND NOT (id = ANY($4::uuid[]))
           ORDER BY lease_expires_at LIMIT $1 * 2)),
       due AS (
         SELECT j.id FROM sync_jobs j
          WHERE j.id = ANY(ARRAY(SELECT id FROM candidates))
            AND ((j.state = 'queued' AND j.run_at <= now()) OR (j.state = 'running' AND j.lease_expires_at < now()))
          ORDER BY j.run_at LIMIT $1 FOR UPDATE OF j SKIP LOCKED)
       UPDATE sync_jobs j SET state = 'running', lease_owner = $2 || '/' || gen_random_uuid(),
              lease_expires_at = now() + make_interval(secs => $3::int / 1000.0), attempts = j.attempts + 1
         FROM due WHERE j.id = due.id
       RETURNING j.id, j.kind, j.workspace_id, j.account_id, j.rendition_id, j.growth_item_id, j.lease_owner AS lease, j.attempts,
                 (SELECT r.external_id FROM renditions r WHERE r.id = j.rendition_id) AS rendition_external_id`,
      [limit, this.claims.owner, this.config.INSIGHTS_LEASE_MS, this.claims.inFlightIds],
    );
  }

  private async untilNextDue(poll: number): Promise<number> {
    const [next] = await preparedQuery<SyncJobDueRow>(
      this.dataSource,
      'insights.sync.next-due',
      `SELECT run_at AS at FROM sync_jobs WHERE state = 'queued' AND run_at > now() ORDER BY run_at LIMIT 1`,
      [],
    );
    return untilNextDue(next?.at, poll);
  }

  private start(job: ClaimedJobRow): void {
    this.claims.run(job.id, { lease: job.lease }, () =>
      this.runner
        .run(job)
        .catch((error: unknown): JobEnd => {
          this.logger.warn({ err: error, job_id: job.id, kind: job.kind }, 'sync job could not run; retrying later');
          return { outcome: 'error', retryAt: backoffAt(job.attempts) };
        })
        .then((end) => this.finish(job, end))
        .catch((error: unknown) =>
          this.logger.error({ err: error, job_id: job.id }, 'sync job outcome not recorded; its lease will run out and it runs again'),
        ),
    );
  }

  /**
   * Done, or queued again at `retryAt`, while the lease is ours. When another
   * job with the same key was queued meanwhile, that one covers it: this one ends.
   */
  private async finish(job: ClaimedJobRow, end: JobEnd): Promise<void> {
    if (end.recorded) return;
    if (end.retryAt) {
      const requeued = await changedRows<SyncJobIdRow>(
        this.dataSource,
        `UPDATE sync_jobs j SET state = 'queued', run_at = $3, lease_owner = NULL, lease_expires_at = NULL, outcome = $4
          WHERE j.id = $1 AND j.lease_owner = $2
            AND NOT EXISTS (SELECT 1 FROM sync_jobs o WHERE o.dedupe_key = j.dedupe_key AND o.state = 'queued')
          RETURNING j.id`,
        [job.id, job.lease, end.retryAt, end.outcome],
      );
      // Due again later: the sleeping loop must know of it (its delay was set before).
      if (requeued.length === 1) return this.claims.wake();
    }
    const state: SyncJobState = end.outcome === 'ok' ? 'done' : 'failed';
    await preparedQuery(
      this.dataSource,
      'insights.sync.finish',
      `UPDATE sync_jobs SET state = $3, outcome = $4, finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
       WHERE id = $1 AND lease_owner = $2`,
      [job.id, job.lease, state, end.outcome],
    );
  }

  private async renewLeases(entries: Array<[string, LeasedWork]>): Promise<void> {
    const leases = entries.map(([, entry]) => entry.lease);
    if (leases.length === 0) return;
    try {
      await this.dataSource.query(
        `UPDATE sync_jobs SET lease_expires_at = now() + make_interval(secs => $2::int / 1000.0)
         WHERE lease_owner = ANY($1::text[]) AND state = 'running'`,
        [leases, this.config.INSIGHTS_LEASE_MS],
      );
    } catch (error) {
      this.logger.warn({ err: error }, 'sync worker could not renew its leases');
    }
  }
}
