import type { SYNC_JOB_STATUSES } from '@social/contracts';

/** What a sync job does (the CHECK of `sync_jobs.kind`). */
export const JOB_KINDS = ['growth_refresh', 'account_metrics', 'rendition_metrics', 'follow'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
/** `sync_jobs.state`: the contract's statuses of a sync job. */
export type SyncJobState = (typeof SYNC_JOB_STATUSES)[number];

/** A job as the claim hands it over (`lease`: this claim's `lease_owner`). */
export interface ClaimedJobRow {
  id: string;
  kind: JobKind;
  workspace_id: string;
  account_id: string;
  rendition_id: string | null;
  /** The post on the network of the rendition a `rendition_metrics` job measures; null for other kinds or a rendition gone. */
  rendition_external_id: string | null;
  growth_item_id: string | null;
  lease: string;
  attempts: number;
}

/** A queued job's id (what enqueueing answers). */
export interface SyncJobIdRow {
  id: string;
}

/** When the next queued job is due. */
export interface SyncJobDueRow {
  at: Date;
}

/** Today's plan (`planner_runs`), claimed by the replica whose insert made it. */
export interface PlannerRunRow {
  day: Date;
}
