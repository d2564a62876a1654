import { Problem } from '@social/platform';
import type { EntityManager } from 'typeorm';
import type { UploadRoomRow } from './upload-session.row.js';

/** Contract §6: at most this many open upload sessions (created, neither completed nor expired) per workspace. */
export const MAX_OPEN_UPLOAD_SESSIONS = 100;

/**
 * Checks, in E17's transaction and under a per-workspace lock (so parallel opens cannot both pass), that
 * one more session of `size` bytes fits: the workspace's ready items plus the declared size of its open
 * sessions stay within `quotaBytes` (422 at body.size, `storage_quota_exceeded`), and fewer than
 * MAX_OPEN_UPLOAD_SESSIONS are open (429 `too_many_upload_sessions`, Retry-After until the oldest expires).
 */
export async function requireUploadRoom(db: EntityManager, workspaceId: string, size: number, quotaBytes: number): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`media-upload-room:${workspaceId}`]);
  const [usage] = await db.query<UploadRoomRow[]>(
    `SELECT coalesce(sum(size) FILTER (WHERE status = 'ready' OR (status = 'pending' AND expires_at > now())), 0)::text AS used,
            (count(*) FILTER (WHERE status = 'pending' AND expires_at > now()))::int AS open,
            min(expires_at) FILTER (WHERE status = 'pending' AND expires_at > now()) AS oldest_expiry
       FROM media_items WHERE workspace_id = $1`,
    [workspaceId],
  );
  const used = BigInt(usage.used);
  if (used + BigInt(size) > BigInt(quotaBytes)) {
    const left = used >= BigInt(quotaBytes) ? 0n : BigInt(quotaBytes) - used;
    throw new Problem(422, 'storage_quota_exceeded', `This workspace may hold ${quotaBytes} bytes; ${left} are left.`, {
      errors: [{ location: 'body.size', message: `exceeds the workspace's storage quota (${left} bytes left)`, value: size }],
    });
  }
  if (usage.open >= MAX_OPEN_UPLOAD_SESSIONS) {
    const retryAfter = usage.oldest_expiry ? Math.max(1, Math.ceil((new Date(usage.oldest_expiry).getTime() - Date.now()) / 1000)) : 60;
    throw new Problem(
      429,
      'too_many_upload_sessions',
      `A workspace may have ${MAX_OPEN_UPLOAD_SESSIONS} open upload sessions; complete some or wait for the oldest to expire.`,
      {
        retryAfter,
      },
    );
  }
}
