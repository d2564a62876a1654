import { referencedAssetIds, VideoDocument, VideoProject, VideoProjectSummary } from '@social/contracts';
import { problems } from '@social/platform';
import type { EntityManager } from 'typeorm';

/** A row of `video_projects` as PROJECT_COLUMNS selects it. */
export interface VideoProjectRow {
  id: string;
  workspaceId: string;
  name: string;
  document?: VideoDocument;
  headRevision: number;
  syncStatus: string;
  attentionReason: string;
  previewObjectKey: string;
  createdBy: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
  trashedAt: Date | null;
  retentionExpiresAt: Date | null;
}

export const PROJECT_SUMMARY_COLUMNS = `p.id, p.workspace_id AS "workspaceId", p.name, p.head_revision AS "headRevision", p.sync_status AS "syncStatus",
  p.attention_reason AS "attentionReason", p.preview_object_key AS "previewObjectKey", p.created_by AS "createdBy", p.updated_by AS "updatedBy",
  p.created_at AS "createdAt", p.updated_at AS "updatedAt", p.trashed_at AS "trashedAt", p.retention_expires_at AS "retentionExpiresAt"`;
export const PROJECT_COLUMNS = `${PROJECT_SUMMARY_COLUMNS}, p.document`;

export const NO_SUCH_PROJECT = 'No such video project.';

/** The project (trashed ones too), optionally locked for the transaction. */
export async function findProject(db: EntityManager, id: string, lock = false): Promise<VideoProjectRow | null> {
  const [row] = await db.query<VideoProjectRow[]>(`SELECT ${PROJECT_COLUMNS} FROM video_projects p WHERE p.id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return row ?? null;
}

export const projectTrashed = () =>
  problems.conflict('project_trashed', 'The video project is in the trash; restore it (POST /video-projects/{id}/restore) before changing it.');

export function requireNotTrashed(project: VideoProjectRow): void {
  if (project.trashedAt) throw projectTrashed();
}

export function toSummary(row: VideoProjectRow): VideoProjectSummary {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    head_revision: row.headRevision,
    sync_status: row.syncStatus,
    attention_reason: row.attentionReason,
    preview_object_key: row.previewObjectKey,
    created_at: row.createdAt.toISOString(),
    created_by_user_id: row.createdBy,
    updated_at: row.updatedAt.toISOString(),
    updated_by_user_id: row.updatedBy,
    trashed_at: row.trashedAt?.toISOString() ?? '',
    retention_expires_at: row.retentionExpiresAt?.toISOString() ?? '',
  };
}

export function toVideoProject(row: VideoProjectRow): VideoProject {
  return { ...toSummary(row), document: row.document! };
}

export interface SyncState {
  status: 'pending' | 'synced' | 'attention';
  reason: '' | 'asset_failed' | 'asset_missing';
}

/**
 * What the project's sync status is for `document`: `attention` when an asset it
 * plays failed (`asset_failed`) or is not an asset of the project (deleted, or
 * never was: `asset_missing`), else `pending` while one is not ready, else `synced`.
 */
export async function syncStateOf(db: EntityManager, projectId: string, document: VideoDocument): Promise<SyncState> {
  const needed = referencedAssetIds(document);
  if (needed.length === 0) return { status: 'synced', reason: '' };
  const rows = await db.query<Array<{ id: string; status: string }>>(`SELECT id, status FROM project_assets WHERE project_id = $1 AND id = ANY($2::uuid[])`, [
    projectId,
    needed,
  ]);
  const statuses = new Map(rows.map((row) => [row.id, row.status]));
  if (needed.some((id) => statuses.get(id) === 'failed')) return { status: 'attention', reason: 'asset_failed' };
  if (needed.some((id) => !statuses.has(id))) return { status: 'attention', reason: 'asset_missing' };
  if (needed.some((id) => statuses.get(id) !== 'ready')) return { status: 'pending', reason: '' };
  return { status: 'synced', reason: '' };
}

/** Recomputes and stores the sync status of a project after its assets changed (the caller holds the transaction). */
export async function refreshSyncStatus(db: EntityManager, projectId: string): Promise<void> {
  const project = await findProject(db, projectId, true);
  if (!project) return;
  const state = await syncStateOf(db, projectId, project.document!);
  if (state.status === project.syncStatus && state.reason === project.attentionReason) return;
  await db.query(`UPDATE video_projects SET sync_status = $2, attention_reason = $3 WHERE id = $1`, [projectId, state.status, state.reason]);
}
