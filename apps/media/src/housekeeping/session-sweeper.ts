import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { type MediaStorage, SERVICE_CONFIG, SERVICE_LOGGER } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { MediaConfig } from '../config.js';
import { MEDIA_STORAGE } from '../storage/storage.module.js';

const SWEEP_BATCH = 100;

/**
 * Upload sessions never completed are removed an hour after they opened, with
 * whatever bytes reached storage. Each replica sweeps on its own timer; a batch
 * is claimed with FOR UPDATE SKIP LOCKED, so replicas never work on the same
 * session, and its rows are deleted only after their objects are.
 */
@Injectable()
export class SessionSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
    @Inject(SERVICE_CONFIG) private readonly config: MediaConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'upload session sweep failed'))
        .finally(() => (this.running = undefined));
    }, this.config.MEDIA_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Removes expired sessions, a batch per transaction, until none is left; answers how many went. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (;;) {
      const count = await this.dataSource.transaction(async (db) => {
        const expired = await db.query<Array<{ id: string; object_key: string }>>(
          `SELECT id, object_key FROM media_items WHERE status = 'pending' AND expires_at < now()
            ORDER BY expires_at LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED`,
        );
        for (const session of expired) await this.storage.delete(session.object_key);
        if (expired.length > 0) await db.query(`DELETE FROM media_items WHERE id = ANY($1::uuid[])`, [expired.map((session) => session.id)]);
        return expired.length;
      });
      removed += count;
      if (count < SWEEP_BATCH) break;
    }
    if (removed > 0) this.logger.info({ removed }, 'expired upload sessions removed');
    return removed;
  }
}
