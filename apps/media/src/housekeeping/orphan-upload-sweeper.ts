import { Inject, Injectable } from '@nestjs/common';
import { type MediaStorage, PeriodicSweep, SERVICE_CONFIG, SERVICE_LOGGER, uploadKeyMediaId } from '@social/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { MediaConfig } from '../config.js';
import type { MediaItemRow, StoredObjectRow } from '../library/media-item.row.js';
import { MEDIA_STORAGE } from '../storage/storage.module.js';

/** Items looked up per query. */
const LOOKUP_BATCH = 500;

/**
 * Upload bytes no item will ever keep. The gateway keeps what it stored when the commit's answer is lost (a 5xx:
 * the commit may have happened), so a media replica dying mid-upload leaves the first attempt's object behind
 * once the client's retry wins. An upload key (`…/media/<id>/uploads/<nonce>`) is an orphan when its item is
 * gone, or settled (ready, merged, expired) with another `object_key`: only a pending session can still adopt
 * one of its uploads, so those are never touched. Walks the whole bucket: it runs on its own, slower timer.
 */
@Injectable()
export class OrphanUploadSweeper extends PeriodicSweep {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
    @Inject(SERVICE_CONFIG) config: MediaConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    super({ intervalMs: config.MEDIA_ORPHAN_SWEEP_INTERVAL_MS, logger, failure: 'orphan upload sweep failed' });
  }

  /** Deletes the orphan uploads; answers how many objects went. */
  async sweep(): Promise<number> {
    const uploads = new Map<string, string[]>();
    for await (const object of this.storage.list('workspaces/')) {
      const mediaId = uploadKeyMediaId(object.key);
      if (mediaId) uploads.set(mediaId, [...(uploads.get(mediaId) ?? []), object.key]);
    }
    const ids = [...uploads.keys()];
    let removed = 0;
    for (let start = 0; start < ids.length; start += LOOKUP_BATCH) {
      const batch = ids.slice(start, start + LOOKUP_BATCH);
      const rows = await this.dataSource.query<Array<Pick<MediaItemRow, 'id' | 'status'> & StoredObjectRow>>(
        `SELECT id, status, object_key FROM media_items WHERE id = ANY($1::uuid[])`,
        [batch],
      );
      const items = new Map(rows.map((row) => [row.id, row]));
      for (const id of batch) {
        const item = items.get(id);
        // Listed before this read: a session pending now may still commit any of its uploads.
        if (item?.status === 'pending') continue;
        for (const key of uploads.get(id)!) {
          if (key === item?.object_key) continue;
          await this.storage.delete(key);
          removed++;
        }
      }
    }
    if (removed > 0) this.logger.info({ removed }, 'orphan upload bytes swept');
    return removed;
  }
}
