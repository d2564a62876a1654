import { connect, type NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';

/** What the media service's analysis would have found for an item (unset items answer `ready` with the library's own facts). */
export interface StandInAnalysis {
  analysis_status?: 'pending' | 'ready' | 'failed';
  width?: number;
  height?: number;
  duration_ms?: number;
  frame_rate?: number;
}

export interface MediaResolveStandIn {
  /** Set per media id by the caller. */
  analysis: Map<string, StandInAnalysis>;
  stop(): Promise<void>;
}

/**
 * TEMPORARY, until the media service's `media.library.resolve` (issue 21, the media library's part) is merged:
 * answers that subject on a stack's NATS from the media service's own table (`media.media_items`), exactly in
 * the agreed shape (only the workspace's pending or ready items; deleted, foreign and unknown ids absent),
 * with the analysis the caller sets per item. The e2e suites and the posts-media bench use it; the lead
 * removes it (and its uses) once the real handler is on the branch.
 */
export async function startMediaResolveStandIn(natsUrl: string, databaseUrl: string): Promise<MediaResolveStandIn> {
  const analysis = new Map<string, StandInAnalysis>();
  // A pool: requests arrive concurrently.
  const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  let nc: NatsConnection;
  try {
    nc = await connect({ servers: natsUrl });
  } catch (error) {
    await db.end();
    throw error;
  }
  const subscription = nc.subscribe('media.library.resolve', {
    callback: (error, msg) => {
      if (error) return;
      void (async () => {
        const request = msg.json<{ id: string; data: { workspace_id: string; media_ids: string[] } }>();
        const { rows } = await db.query(
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
      })().catch(() => undefined);
    },
  });
  return {
    analysis,
    stop: async () => {
      subscription.unsubscribe();
      await nc.close();
      await db.end();
    },
  };
}
