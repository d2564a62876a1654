import { afterAll, beforeAll } from '@jest/globals';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import pg from 'pg';

/** What the media service's analysis would have found for an item (a test sets it; unset items answer `ready` with the library's own facts). */
export interface StandInAnalysis {
  analysis_status?: 'pending' | 'ready' | 'failed';
  width?: number;
  height?: number;
  duration_ms?: number;
  frame_rate?: number;
}

/**
 * TEMPORARY, until the media service's `media.library.resolve` (issue 21, the media library's part) is merged:
 * answers that subject on the stack's NATS from the media service's own table, exactly in the agreed shape
 * (only the workspace's pending or ready items; deleted, foreign and unknown ids absent), with the analysis a
 * test sets per item. The lead removes this file and its uses once the real handler is on the branch (the
 * tests then set analysis through the media service instead).
 */
export function mediaResolveStandIn(): { analysis: Map<string, StandInAnalysis> } {
  const analysis = new Map<string, StandInAnalysis>();
  let nc: NatsConnection | undefined;
  let db: pg.Client | undefined;
  let subscription: Subscription | undefined;
  beforeAll(async () => {
    db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
    await db.connect();
    nc = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
    subscription = nc.subscribe('media.library.resolve', {
      callback: (error, msg) => {
        if (error) return;
        void (async () => {
          const request = msg.json<{ id: string; data: { workspace_id: string; media_ids: string[] } }>();
          const { rows } = await db!.query(
            `SELECT id, workspace_id, status, filename, mime_type, size::bigint AS size, sha256, width, height, duration_ms::bigint AS duration_ms, object_key
               FROM media.media_items WHERE workspace_id = $1 AND id = ANY($2::uuid[]) AND status IN ('pending', 'ready')`,
            [request.data.workspace_id, request.data.media_ids],
          );
          const items = rows.map((row) => {
            const found = analysis.get(row.id) ?? {};
            return {
              id: row.id,
              workspace_id: row.workspace_id,
              status: row.status,
              filename: row.filename,
              mime_type: row.mime_type,
              size: Number(row.size),
              sha256: row.sha256,
              width: found.width ?? row.width,
              height: found.height ?? row.height,
              duration_ms: found.duration_ms ?? Number(row.duration_ms),
              frame_rate: found.frame_rate ?? 0,
              analysis_status: found.analysis_status ?? 'ready',
              analysis_error: '',
              poster_media_id: '',
              thumbnail_timestamp_ms: 0,
              object_key: row.object_key,
              public_url_ready: false,
              public_url_status: 0,
              public_url_checked_at: '',
              public_url_error: '',
            };
          });
          msg.respond(JSON.stringify({ id: request.id, response: { items }, isDisposed: true }));
        })();
      },
    });
  });
  afterAll(async () => {
    subscription?.unsubscribe();
    await nc?.close();
    await db?.end();
  });
  return { analysis };
}
