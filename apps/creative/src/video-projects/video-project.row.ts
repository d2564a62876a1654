import {
  NO_SUCH_VIDEO_PROJECT,
  referencedIds,
  type VIDEO_SYNC_STATUSES,
  type VideoDocument,
  VideoProject,
  VideoProjectSummary,
} from '@social/contracts';
import { problems } from '@social/platform';
import type { EntityManager } from 'typeorm';
import type { ProjectAssetRow } from '../project-assets/project-asset.row.js';

export type VideoSyncStatus = (typeof VIDEO_SYNC_STATUSES)[number];
/** Why a project needs attention (`attention_reason`): `asset_failed` with `attention`, else "". */
export const ATTENTION_REASONS = ['', 'asset_failed'] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

/** A row of `video_projects` as PROJECT_COLUMNS selects it. */
export interface VideoProjectRow {
  id: string;
  workspaceId: string;
  name: string;
  /** The head document's JSON text (PROJECT_COLUMNS only). */
  documentJson?: string;
  headRevision: number;
  syncStatus: VideoSyncStatus;
  attentionReason: AttentionReason;
  previewObjectKey: string;
  createdBy: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
  trashedAt: Date | null;
  retentionExpiresAt: Date | null;
}

/** A row of `video_project_revisions`. */
export interface VideoRevisionRow {
  revision: number;
  name: string;
  document: VideoDocument;
  created_at: Date;
  created_by: string;
}

/** A revision's name and document as stored text, to become a new head without parsing it. */
export interface VideoRevisionTextRow {
  name: string;
  documentJson: string;
}

export const PROJECT_SUMMARY_COLUMNS = `p.id, p.workspace_id AS "workspaceId", p.name, p.head_revision AS "headRevision",
  p.sync_status AS "syncStatus", p.attention_reason AS "attentionReason", p.preview_object_key AS "previewObjectKey",
  p.created_by AS "createdBy", p.updated_by AS "updatedBy", p.created_at AS "createdAt", p.updated_at AS "updatedAt",
  p.trashed_at AS "trashedAt", p.retention_expires_at AS "retentionExpiresAt"`;
export const PROJECT_COLUMNS = `${PROJECT_SUMMARY_COLUMNS}, p.document::text AS "documentJson"`;

/** As the operations' path ids answer it. */
export const NO_SUCH_PROJECT = NO_SUCH_VIDEO_PROJECT;

/** The project (trashed ones too), optionally locked for the transaction, with its document unless `withDocument` is false. */
export async function findProject(db: EntityManager, id: string, lock = false, withDocument = true): Promise<VideoProjectRow | null> {
  const columns = withDocument ? PROJECT_COLUMNS : PROJECT_SUMMARY_COLUMNS;
  const [row] = await db.query<VideoProjectRow[]>(`SELECT ${columns} FROM video_projects p WHERE p.id = $1${lock ? ' FOR UPDATE' : ''}`, [
    id,
  ]);
  return row ?? null;
}

export const projectTrashed = () =>
  problems.conflict(
    'project_trashed',
    'The video project is in the trash; restore it (POST /video-projects/{id}/restore) before changing it.',
  );

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

/** The project with `document`, or else the document of the row (read with PROJECT_COLUMNS). */
export function toVideoProject(row: VideoProjectRow, document?: Record<string, unknown>): VideoProject {
  return { ...toSummary(row), document: document ?? (JSON.parse(row.documentJson!) as Record<string, unknown>) };
}

export interface SyncState {
  status: VideoSyncStatus;
  reason: AttentionReason;
}

/**
 * The project's sync status for a head document (its JSON text), decided by the assets that are
 * `required`, i.e. named by the document: `attention` (`asset_failed`) when one failed, else
 * `pending` while one is not ready, else `synced`. Ids that are not assets of the project (the
 * client's own, or an asset deleted since) do not count.
 */
export async function syncStateOf(db: EntityManager, projectId: string, documentJson: string): Promise<SyncState> {
  const named = referencedIds(documentJson);
  if (named.size === 0) return { status: 'synced', reason: '' };
  const assets = await db.query<Array<Pick<ProjectAssetRow, 'id' | 'status'>>>(
    `SELECT id, status FROM project_assets WHERE project_id = $1`,
    [projectId],
  );
  const required = assets.filter((asset) => named.has(asset.id));
  if (required.some((asset) => asset.status === 'failed')) return { status: 'attention', reason: 'asset_failed' };
  if (required.some((asset) => asset.status !== 'ready')) return { status: 'pending', reason: '' };
  return { status: 'synced', reason: '' };
}

/** Recomputes and stores the sync status of a project after its assets changed (the caller holds the transaction). */
export async function refreshSyncStatus(db: EntityManager, projectId: string): Promise<void> {
  const project = await findProject(db, projectId, true);
  if (!project) return;
  const state = await syncStateOf(db, projectId, project.documentJson!);
  if (state.status === project.syncStatus && state.reason === project.attentionReason) return;
  await db.query(`UPDATE video_projects SET sync_status = $2, attention_reason = $3 WHERE id = $1`, [
    projectId,
    state.status,
    state.reason,
  ]);
}
