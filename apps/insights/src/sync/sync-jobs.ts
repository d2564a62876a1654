import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { JobKind, SyncJobIdRow } from './sync-job.row.js';

export interface JobSpec {
  kind: JobKind;
  workspaceId: string;
  accountId: string;
  renditionId?: string;
  growthItemId?: string;
  /** Default now. */
  runAt?: Date;
}

/** The channel workers LISTEN on (channels are database-wide: one per schema). */
export const syncChannel = (schema: string) => `${schema}_sync_jobs`;

/** What a pending job is deduplicated on: one queued job per account and kind (per rendition and due time; per growth item). */
export function dedupeKey(spec: JobSpec): string {
  switch (spec.kind) {
    case 'rendition_metrics':
      return `rendition_metrics:${spec.renditionId}:${(spec.runAt ?? new Date(0)).toISOString()}`;
    case 'follow':
      return `follow:${spec.growthItemId}`;
    default:
      return `${spec.kind}:${spec.accountId}`;
  }
}

/**
 * Queues a job unless one with the same dedupe key is queued already (the
 * partial unique index decides, so concurrent requests on any replica agree);
 * answers the queued job either way, and wakes the workers.
 */
export async function enqueueJob(db: EntityManager, spec: JobSpec): Promise<{ id: string; created: boolean }> {
  const key = dedupeKey(spec);
  for (;;) {
    const inserted = await db.query<SyncJobIdRow[]>(
      `INSERT INTO sync_jobs (id, workspace_id, kind, dedupe_key, account_id, rendition_id, growth_item_id, state, run_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8, now())
       ON CONFLICT (dedupe_key) WHERE state = 'queued' DO NOTHING RETURNING id`,
      [
        uuidv7(),
        spec.workspaceId,
        spec.kind,
        key,
        spec.accountId,
        spec.renditionId ?? null,
        spec.growthItemId ?? null,
        spec.runAt ?? new Date(),
      ],
    );
    if (inserted.length === 1) {
      await db.query(`SELECT pg_notify(current_schema() || '_sync_jobs', '')`);
      return { id: inserted[0].id, created: true };
    }
    const [existing] = await db.query<SyncJobIdRow[]>(`SELECT id FROM sync_jobs WHERE dedupe_key = $1 AND state = 'queued'`, [key]);
    // Claimed between the two statements: queue a new one.
    if (existing) return { id: existing.id, created: false };
  }
}

/**
 * The INSERT of `queueJobParams`' jobs (parameters `$first` to `$first + 7`), for a statement's CTE: a job whose key is
 * queued already is covered by that one (nothing inserted); `when` (SQL) can hold them all back. Returns a row per job queued.
 */
export function queueJobsInsert(first: number, when = 'true'): string {
  const [id, workspace, kind, key, account, rendition, growthItem, runAt] = Array.from({ length: 8 }, (_, i) => `$${first + i}`);
  return `INSERT INTO sync_jobs (id, workspace_id, kind, dedupe_key, account_id, rendition_id, growth_item_id, state, run_at, created_at)
       SELECT id, workspace_id, kind, dedupe_key, account_id, rendition_id, growth_item_id, 'queued', run_at, now()
         FROM unnest(${id}::uuid[], ${workspace}::uuid[], ${kind}::text[], ${key}::text[], ${account}::uuid[], ${rendition}::uuid[],
                     ${growthItem}::uuid[], ${runAt}::timestamptz[])
              AS j (id, workspace_id, kind, dedupe_key, account_id, rendition_id, growth_item_id, run_at)
        WHERE ${when}
       ON CONFLICT (dedupe_key) WHERE state = 'queued' DO NOTHING RETURNING 1`;
}

/** The eight parameters of `queueJobsInsert`, in its order. */
export function queueJobParams(specs: JobSpec[]): unknown[] {
  return [
    specs.map(() => uuidv7()),
    specs.map((spec) => spec.workspaceId),
    specs.map((spec) => spec.kind),
    specs.map(dedupeKey),
    specs.map((spec) => spec.accountId),
    specs.map((spec) => spec.renditionId ?? null),
    specs.map((spec) => spec.growthItemId ?? null),
    specs.map((spec) => spec.runAt ?? new Date()),
  ];
}

/** Wakes the workers when the statement's `queued` CTE queued anything. */
export const NOTIFY_WHEN_QUEUED = `SELECT pg_notify(current_schema() || '_sync_jobs', '') WHERE EXISTS (SELECT 1 FROM queued)`;

/**
 * A job with nothing to do, recorded as done at once (a refresh of a workspace with no connected
 * account): the caller still answers a real `job_id`, one that exists and says `done`.
 */
export async function recordEmptyJob(db: EntityManager | DataSource, workspaceId: string, kind: JobKind): Promise<string> {
  const id = uuidv7();
  await db.query(
    `INSERT INTO sync_jobs (id, workspace_id, kind, dedupe_key, account_id, state, run_at, outcome, created_at, finished_at)
     VALUES ($1, $2, $3, $4, NULL, 'done', now(), 'nothing_to_sync', now(), now())`,
    [id, workspaceId, kind, `${kind}:none:${id}`],
  );
  return id;
}
