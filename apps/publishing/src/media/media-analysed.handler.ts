import { Injectable } from '@nestjs/common';
import type { DurableEventHandler } from '@social/platform';
import { DataSource } from 'typeorm';
import type { MediaItemAnalysedEvent } from '@social/contracts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * media's `durable.media.item.analysed`: an item's analysis ended or its public URL check changed.
 * Only items publishing already knows (attached somewhere) are updated; redelivery writes the same values.
 */
@Injectable()
export class MediaAnalysedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    const event = payload as Partial<MediaItemAnalysedEvent> | null;
    if (!event || typeof event.id !== 'string' || !UUID.test(event.id)) return;
    await this.dataSource.query(
      `UPDATE media_facts SET status = $2, mime_type = $3, size = $4, width = $5, height = $6, duration_ms = $7, frame_rate = $8,
              analysis_status = $9, analysis_error = $10, poster_media_id = $11, thumbnail_timestamp_ms = $12,
              public_url_ready = $13, public_url_status = $14, public_url_checked_at = $15, public_url_error = $16, updated_at = now()
        WHERE media_id = $1`,
      [
        event.id,
        str(event.status) || 'ready',
        str(event.mime_type),
        Math.trunc(num(event.size)),
        Math.trunc(num(event.width)),
        Math.trunc(num(event.height)),
        Math.trunc(num(event.duration_ms)),
        num(event.frame_rate),
        str(event.analysis_status) || 'pending',
        str(event.analysis_error),
        str(event.poster_media_id),
        Math.trunc(num(event.thumbnail_timestamp_ms)),
        event.public_url_ready === true,
        Math.trunc(num(event.public_url_status)),
        str(event.public_url_checked_at),
        str(event.public_url_error),
      ],
    );
  }
}
