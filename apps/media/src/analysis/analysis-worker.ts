import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import {
  changedCount,
  changedRows,
  ClaimLoop,
  mediaObjectKey,
  type MediaStorage,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  untilNextDue,
} from '@social/platform';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { imageSize } from 'image-size';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { MediaConfig } from '../config.js';
import { findMediaItem, type MediaItemRow, type StoredObjectRow } from '../library/media-item.row.js';
import { PublicUrls, type PublicUrlCheck } from '../public-urls/public-urls.js';
import { MEDIA_STORAGE } from '../storage/storage.module.js';
import type { AnalysisClaimRow, AnalysisDueRow } from './analysis-claim.row.js';
import { LoopbackObjects } from './loopback-source.js';
import { analysisChannel, enqueueItemAnalysed } from './resolved-media.js';
import { extractPosterFrame, posterTimestampMs, probeVideo, ToolFailure, type VideoFacts } from './video-probe.js';

/** Attempts of a video whose probe keeps failing for reasons of ours (storage, a missing tool, a timeout) before it is failed. */
const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 2_000;
/** The largest poster frame kept (one JPEG frame; a 4K frame at q 3 is about 2 MB). */
const POSTER_MAX_BYTES = 16 * 1024 * 1024;

interface Poster {
  id: string;
  key: string;
  bytes: number;
  sha256: string;
  width: number;
  height: number;
}

/** The end of a video's analysis: facts and a poster, or why it failed (with what was learnt). */
type Outcome = { facts: VideoFacts; thumbnailMs: number; poster?: Poster; error: string } | null;

/** A failure worth another attempt (ours, not the file's). */
class Retryable extends Error {}

/**
 * Analyses ready items after their completion, on every replica: videos are probed (duration, frame
 * rate, dimensions) and get a poster frame, and, when PUBLIC_BASE_URL is public, each item's public
 * URL is fetched once as a network would (the self-check). Due rows are claimed with `FOR UPDATE SKIP
 * LOCKED` under a lease of their own that a heartbeat renews, so a replica that dies mid-analysis
 * leaves work another replica takes up when the lease runs out. Outcomes are written only while the
 * lease is ours, with `durable.media.item.analysed` in the same transaction.
 */
@Injectable()
export class AnalysisWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly claims: ClaimLoop;
  private readonly source: LoopbackObjects;
  private readonly leaseMs: number;
  /** Aborted at shutdown: running tools are killed and their items left for the next claim (the attempt is given back). */
  private readonly stopping = new AbortController();

  constructor(
    private readonly dataSource: DataSource,
    private readonly publicUrls: PublicUrls,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
    @Inject(SERVICE_CONFIG) private readonly config: MediaConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.source = new LoopbackObjects(storage, logger);
    this.leaseMs = config.MEDIA_ANALYSIS_TIMEOUT_MS + 30_000;
    this.claims = new ClaimLoop(dataSource, {
      channelOf: analysisChannel,
      logger,
      who: 'media analysis',
      claimFailed: 'media analysis could not claim items',
      pass: () => this.pass(),
      renew: { ms: this.leaseMs, leases: (inFlight) => this.renew(inFlight.map(([, entry]) => entry.lease)) },
    });
  }

  onApplicationBootstrap(): void {
    this.claims.start();
    // Said once at start-up rather than discovered on the first video.
    for (const command of [this.config.FFPROBE_PATH, this.config.FFMPEG_PATH]) {
      execFile(command, ['-version'], (error) => {
        if (error)
          this.logger.error(
            { err: error, command },
            `${command} cannot be run: videos will not be analysed (install Debian's ffmpeg package)`,
          );
      });
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.claims.stop();
    await this.source.close();
  }

  private async pass(): Promise<number | null> {
    const free = this.config.MEDIA_ANALYSIS_CONCURRENCY - this.claims.inFlight.size;
    if (free <= 0) return this.config.MEDIA_ANALYSIS_POLL_MS;
    const rows = await this.claim(free);
    for (const row of rows) this.claims.run(row.id, { lease: row.lease }, () => this.analyse(row));
    if (rows.length === free) return this.config.MEDIA_ANALYSIS_POLL_MS;
    // Due again at its next attempt, or when the lease someone holds on it runs out (a crashed replica's).
    const [next] = await this.dataSource.query<AnalysisDueRow[]>(
      `SELECT greatest(analysis_next_at, analysis_lease_expires_at) AS at FROM media_items
        WHERE status = 'ready' AND (analysis_status = 'pending' OR public_check_due) AND NOT (id = ANY($1::uuid[]))
        ORDER BY 1 LIMIT 1`,
      [this.claims.inFlightIds],
    );
    return untilNextDue(next?.at, this.config.MEDIA_ANALYSIS_POLL_MS);
  }

  private async claim(limit: number): Promise<AnalysisClaimRow[]> {
    return changedRows<AnalysisClaimRow>(
      this.dataSource,
      `WITH due AS (
         SELECT id FROM media_items
          WHERE status = 'ready' AND (analysis_status = 'pending' OR public_check_due) AND analysis_next_at <= now()
            AND (analysis_lease_expires_at IS NULL OR analysis_lease_expires_at < now()) AND NOT (id = ANY($4::uuid[]))
          ORDER BY analysis_next_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE media_items m SET analysis_lease = $2 || '/' || gen_random_uuid(),
              analysis_lease_expires_at = now() + make_interval(secs => $3::int / 1000.0), analysis_attempts = m.analysis_attempts + 1
         FROM due WHERE m.id = due.id
       RETURNING m.id, m.workspace_id, m.filename, m.object_key, m.mime_type, m.size, m.created_by, m.analysis_status, m.public_check_due,
                 m.analysis_attempts, m.poster_media_id, m.project_asset_id, m.analysis_lease AS lease`,
      [limit, this.claims.owner, this.leaseMs, this.claims.inFlightIds],
    );
  }

  private async renew(leases: string[]): Promise<void> {
    await this.dataSource
      .query(
        `UPDATE media_items SET analysis_lease_expires_at = now() + make_interval(secs => $2::int / 1000.0)
         WHERE analysis_lease = ANY($1::text[])`,
        [leases, this.leaseMs],
      )
      .catch((error: unknown) => this.logger.warn({ err: error }, 'media analysis could not renew its leases'));
  }

  /** One claimed item, start to end; never rejects (failures are recorded or retried). */
  private async analyse(row: AnalysisClaimRow): Promise<void> {
    let outcome: Outcome = null;
    try {
      if (row.analysis_status === 'pending') outcome = await this.analyseVideo(row);
      const check = row.public_check_due ? await this.checkPublicUrl(row) : undefined;
      await this.settle(row, outcome, check);
    } catch (error) {
      if (outcome?.poster) await this.dropObject(outcome.poster.key);
      await this.retryOrFail(row, error);
    }
  }

  /** Probes the video through a loopback URL and takes its poster frame; a file the tools refuse is a failed analysis, not an error. */
  private async analyseVideo(row: AnalysisClaimRow): Promise<Outcome> {
    const stored = await this.storage.stat(row.object_key);
    if (!stored)
      return {
        facts: { durationMs: 0, frameRate: 0, width: 0, height: 0 },
        thumbnailMs: 0,
        error: "the item's bytes are gone from storage",
      };
    const lent = await this.source.lend(row.object_key, stored.size);
    const tool = (command: string) => ({ command, timeoutMs: this.config.MEDIA_ANALYSIS_TIMEOUT_MS, signal: this.stopping.signal });
    try {
      let facts: VideoFacts;
      try {
        facts = await probeVideo(lent.url, tool(this.config.FFPROBE_PATH));
      } catch (error) {
        if (error instanceof ToolFailure && error.kind === 'refused' && !lent.storageFailed()) {
          return {
            facts: { durationMs: 0, frameRate: 0, width: 0, height: 0 },
            thumbnailMs: 0,
            error: `the video could not be probed: ${error.message}`,
          };
        }
        throw this.retryable(error, lent.storageFailed());
      }
      let thumbnailMs = posterTimestampMs(facts.durationMs);
      let frame: Buffer;
      try {
        const options = { ...tool(this.config.FFMPEG_PATH), maxBytes: POSTER_MAX_BYTES };
        frame = await extractPosterFrame(lent.url, thumbnailMs, options);
        // A duration the container overstates: the first frame, then.
        if (frame.length === 0 && thumbnailMs > 0) {
          thumbnailMs = 0;
          frame = await extractPosterFrame(lent.url, 0, options);
        }
      } catch (error) {
        if (error instanceof ToolFailure && error.kind === 'refused' && !lent.storageFailed()) {
          return { facts, thumbnailMs: 0, error: `no poster frame could be decoded: ${error.message}` };
        }
        throw this.retryable(error, lent.storageFailed());
      }
      if (frame.length === 0) return { facts, thumbnailMs: 0, error: 'the video has no frame that can be decoded' };
      return { facts, thumbnailMs, poster: await this.storePoster(row, frame), error: '' };
    } finally {
      lent.close();
    }
  }

  private retryable(error: unknown, storageFailed: boolean): Error {
    if (error instanceof ToolFailure && error.kind === 'aborted') return error;
    if (storageFailed) return new Retryable('media storage failed while the video was read');
    if (error instanceof ToolFailure)
      return new Retryable(error.kind === 'timeout' ? `probing took too long (${error.message})` : error.message);
    return error as Error;
  }

  private async storePoster(row: AnalysisClaimRow, frame: Buffer): Promise<Poster> {
    let dimensions: { width?: number; height?: number } = {};
    try {
      dimensions = imageSize(frame);
    } catch {
      // ffmpeg wrote the JPEG; unreadable dimensions stay 0 rather than lose the poster.
    }
    const id = uuidv7();
    const key = mediaObjectKey(row.workspace_id, id);
    await this.storage.put(key, Readable.from([frame]), frame.length);
    return {
      id,
      key,
      bytes: frame.length,
      sha256: createHash('sha256').update(frame).digest('hex'),
      width: dimensions.width ?? 0,
      height: dimensions.height ?? 0,
    };
  }

  private async checkPublicUrl(row: AnalysisClaimRow): Promise<PublicUrlCheck | undefined> {
    if (!this.publicUrls.isPublic) return undefined;
    return this.publicUrls.selfCheck(row.id);
  }

  /** Writes the outcome while the lease is ours (else the poster goes: someone else took the item, or it was deleted). */
  private async settle(row: AnalysisClaimRow, outcome: Outcome, check: PublicUrlCheck | undefined): Promise<void> {
    const replaced = await this.dataSource.transaction(async (db) => {
      // Still ours (not deleted meanwhile, nor taken over after our lease ran out), locked until the end.
      const [held] = await db.query<Array<Pick<MediaItemRow, 'id'>>>(
        `SELECT id FROM media_items WHERE id = $1 AND analysis_lease = $2 FOR UPDATE`,
        [row.id, row.lease],
      );
      if (!held) throw new LeaseLost();
      if (outcome?.poster) await this.insertPoster(db, row, outcome.poster);
      const values: unknown[] = [row.id, row.lease];
      const sets = ['analysis_lease = NULL', 'analysis_lease_expires_at = NULL', 'public_check_due = false'];
      if (outcome) {
        sets.push(
          `analysis_status = $${values.push(outcome.error ? 'failed' : 'ready')}`,
          `analysis_error = $${values.push(outcome.error)}`,
          `thumbnail_timestamp_ms = $${values.push(outcome.thumbnailMs)}`,
          `poster_media_id = $${values.push(outcome.poster?.id ?? null)}::uuid`,
        );
        // What the probe learnt replaces what completion guessed (the mvhd duration, no dimensions).
        if (outcome.facts.durationMs > 0 || outcome.facts.width > 0) {
          sets.push(
            `duration_ms = $${values.push(outcome.facts.durationMs)}`,
            `frame_rate = $${values.push(outcome.facts.frameRate)}`,
            `width = $${values.push(outcome.facts.width)}`,
            `height = $${values.push(outcome.facts.height)}`,
          );
        }
      }
      if (check) {
        sets.push(
          `public_url_status = $${values.push(check.status)}`,
          `public_url_error = $${values.push(check.error)}`,
          'public_url_checked_at = now()',
        );
      }
      const updated = await changedCount(
        db,
        `UPDATE media_items SET ${sets.join(', ')} WHERE id = $1 AND analysis_lease = $2 RETURNING id`,
        values,
      );
      if (updated === 0) throw new LeaseLost();
      // Library items only: a project asset's item is its video project's, not something posts attach.
      if ((outcome || check) && !row.project_asset_id) await enqueueItemAnalysed(db, (await findMediaItem(db, row.id))!, this.publicUrls);
      // A re-analysed video's previous poster (its row goes here, its object after the commit).
      if (outcome && row.poster_media_id) {
        const old = await changedRows<StoredObjectRow>(
          db,
          `DELETE FROM media_items WHERE id = $1 AND poster_of = $2 RETURNING object_key`,
          [row.poster_media_id, row.id],
        );
        return old[0]?.object_key;
      }
      return undefined;
    });
    if (replaced) await this.dropObject(replaced);
  }

  private async insertPoster(db: EntityManager, row: AnalysisClaimRow, poster: Poster): Promise<void> {
    const base = row.filename.replace(/\.[^.]*$/, '') || 'video';
    await db.query(
      `INSERT INTO media_items (id, workspace_id, filename, size, status, mime_type, sha256, width, height, object_key, created_by,
                                created_at, expires_at, completed_at, analysis_status, poster_of)
       VALUES ($1, $2, $3, $4, 'ready', 'image/jpeg', $5, $6, $7, $8, $9, now(), now(), now(), 'ready', $10)`,
      [
        poster.id,
        row.workspace_id,
        `${base.slice(0, 240)}-poster.jpg`,
        poster.bytes,
        poster.sha256,
        poster.width,
        poster.height,
        poster.key,
        row.created_by,
        row.id,
      ],
    );
  }

  /**
   * Ours to retry (storage, a missing or slow tool): later with backoff, failed
   * after MAX_ATTEMPTS; anything else is logged and retried the same way.
   */
  private async retryOrFail(row: AnalysisClaimRow, error: unknown): Promise<void> {
    if (error instanceof LeaseLost) {
      this.logger.info({ media_id: row.id }, 'media analysis lost its lease (item deleted or taken over); outcome dropped');
      return;
    }
    if (error instanceof ToolFailure && error.kind === 'aborted') {
      // Stopped by our shutdown, not by the file: due again at once elsewhere, the attempt not counted.
      await this.dataSource
        .query(
          `UPDATE media_items SET analysis_next_at = now(), analysis_attempts = greatest(analysis_attempts - 1, 0), analysis_lease = NULL,
                  analysis_lease_expires_at = NULL WHERE id = $1 AND analysis_lease = $2`,
          [row.id, row.lease],
        )
        .catch((failure: unknown) =>
          this.logger.warn({ err: failure, media_id: row.id }, 'media analysis could not hand an item back; its lease will run out'),
        );
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    const final = row.analysis_attempts >= MAX_ATTEMPTS;
    this.logger.warn(
      { err: error, media_id: row.id, attempts: row.analysis_attempts, final },
      'media analysis failed; will retry unless final',
    );
    try {
      if (final && row.analysis_status === 'pending') {
        await this.dataSource.transaction(async (db) => {
          const updated = await changedCount(
            db,
            `UPDATE media_items SET analysis_status = 'failed', analysis_error = $3, public_check_due = false, analysis_lease = NULL,
                    analysis_lease_expires_at = NULL WHERE id = $1 AND analysis_lease = $2 RETURNING id`,
            [row.id, row.lease, `the analysis did not succeed after ${MAX_ATTEMPTS} attempts: ${message}`.slice(0, 1000)],
          );
          if (updated > 0 && !row.project_asset_id) await enqueueItemAnalysed(db, (await findMediaItem(db, row.id))!, this.publicUrls);
        });
        return;
      }
      const delay = final ? 0 : RETRY_BASE_MS * 2 ** Math.min(row.analysis_attempts - 1, 10);
      await this.dataSource.query(
        `UPDATE media_items SET analysis_next_at = now() + make_interval(secs => $3::int / 1000.0), analysis_lease = NULL,
                analysis_lease_expires_at = NULL, public_check_due = public_check_due AND $4
          WHERE id = $1 AND analysis_lease = $2`,
        [row.id, row.lease, delay, !final],
      );
    } catch (failure) {
      this.logger.warn({ err: failure, media_id: row.id }, 'media analysis could not record a retry; the lease will run out');
    }
  }

  private async dropObject(key: string): Promise<void> {
    await this.storage
      .delete(key)
      .catch((error: unknown) => this.logger.warn({ err: error, object_key: key }, 'could not delete a poster frame'));
  }
}

class LeaseLost extends Error {}
