import type { ImageEditorDesign, ImageEditorDocument, ImageEditorRevision, REVISION_KINDS, RevisionSummary } from '@social/contracts';
import type { EntityManager } from 'typeorm';

export type RevisionKind = (typeof REVISION_KINDS)[number];

export interface DesignRow {
  id: string;
  workspaceId: string;
  name: string;
  document: ImageEditorDocument;
  headRevisionId: string;
  lastRevision: number;
  previewMediaId: string;
  createdAt: Date;
  updatedAt: Date;
}

export const DESIGN_COLUMNS = `d.id, d.workspace_id AS "workspaceId", d.name, d.document, d.head_revision_id AS "headRevisionId",
  d.last_revision AS "lastRevision", d.preview_media_id AS "previewMediaId", d.created_at AS "createdAt", d.updated_at AS "updatedAt"`;

export async function findDesign(db: EntityManager, id: string, lock = false): Promise<DesignRow | null> {
  const rows = await db.query<DesignRow[]>(`SELECT ${DESIGN_COLUMNS} FROM image_designs d WHERE d.id = $1${lock ? ' FOR UPDATE' : ''}`, [
    id,
  ]);
  return rows[0] ?? null;
}

export const toDesign = (row: DesignRow): ImageEditorDesign => ({
  id: row.id,
  workspace_id: row.workspaceId,
  name: row.name,
  document: row.document,
  head_revision_id: row.headRevisionId,
  preview_media_id: row.previewMediaId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export interface RevisionRow {
  id: string;
  designId: string;
  revision: number;
  kind: RevisionKind;
  name: string;
  document: ImageEditorDocument;
  coverPreviewMediaId: string;
  actorUserId: string;
  actorName: string;
  createdAt: Date;
  expiresAt: Date | null;
}

/** Live revisions only: an expired autosave is gone even before it is pruned. */
export const LIVE_REVISION = `(r.expires_at IS NULL OR r.expires_at > now())`;

export const REVISION_COLUMNS = `r.id, r.design_id AS "designId", r.revision, r.kind, r.name,
  r.cover_preview_media_id AS "coverPreviewMediaId",
  r.actor_user_id AS "actorUserId", r.actor_name AS "actorName", r.created_at AS "createdAt", r.expires_at AS "expiresAt"`;

export const toRevisionSummary = (row: RevisionRow, callerId: string): RevisionSummary => ({
  id: row.id,
  revision: row.revision,
  kind: row.kind,
  name: row.name,
  actor: { is_current_user: row.actorUserId === callerId, name: row.actorName },
  created_at: row.createdAt.toISOString(),
  expires_at: row.expiresAt ? row.expiresAt.toISOString() : '',
});

export const toRevision = (row: RevisionRow, callerId: string): ImageEditorRevision => ({
  cover_preview_media_id: row.coverPreviewMediaId,
  document: row.document,
  summary: toRevisionSummary(row, callerId),
});
