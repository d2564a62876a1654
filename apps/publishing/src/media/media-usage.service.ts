import { Injectable } from '@nestjs/common';
import type { MediaUsage, MediaUsageRequest } from '@social/contracts';
import { DataSource } from 'typeorm';

/** Publications whose media may still be sent: their items cannot leave the library (docs/decisions.md, DELETE /media/{id} → 409). */
const ACTIVE_STATUSES = ['draft', 'ready', 'scheduled', 'publishing'];

/** `publishing.media.usage`: which of the ids a not yet published or failed publication of the workspace uses, anywhere, in any role. */
@Injectable()
export class MediaUsageService {
  constructor(private readonly dataSource: DataSource) {}

  async inUse(request: MediaUsageRequest): Promise<MediaUsage> {
    if (request.media_ids.length === 0) return { in_use: [] };
    const ids = request.media_ids.map((id) => id.toLowerCase());
    const rows: Array<{ media_id: string }> = await this.dataSource.query(
      `WITH active AS (SELECT id FROM publications WHERE workspace_id = $1 AND status = ANY($3::text[])),
            used AS (
              SELECT p.media FROM publications p JOIN active a ON a.id = p.id
              UNION ALL SELECT s.media FROM publication_segments s JOIN active a ON a.id = s.publication_id
              UNION ALL SELECT r.media FROM renditions r JOIN active a ON a.id = r.publication_id
              UNION ALL SELECT rs.media FROM rendition_segments rs JOIN renditions r ON r.id = rs.rendition_id
                JOIN active a ON a.id = r.publication_id)
       SELECT DISTINCT item->>'media_id' AS media_id FROM used, jsonb_array_elements(used.media) item
        WHERE item->>'media_id' = ANY($2::text[])`,
      [request.workspace_id, ids, ACTIVE_STATUSES],
    );
    const used = new Set(rows.map((row) => row.media_id));
    return { in_use: request.media_ids.filter((id) => used.has(id.toLowerCase())) };
  }
}
