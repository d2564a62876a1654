import type { PROJECT_ASSET_STATUSES } from '@social/contracts';

export type ProjectAssetStatus = (typeof PROJECT_ASSET_STATUSES)[number];

/** A row of `project_assets` as ASSET_COLUMNS selects it. */
export interface ProjectAssetRow {
  id: string;
  workspaceId: string;
  projectId: string;
  status: ProjectAssetStatus;
  attentionReason: string;
  mediaId: string | null;
  mimeType: string;
  originalFilename: string;
  preparation: Record<string, unknown>;
  sha256: string;
  /** bigint, as pg gives it. */
  size: string;
  stableMediaId: string;
  deviceId: string;
  uploadedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export const ASSET_COLUMNS = `a.id, a.workspace_id AS "workspaceId", a.project_id AS "projectId", a.status,
  a.attention_reason AS "attentionReason",
  a.media_id AS "mediaId", a.mime_type AS "mimeType", a.original_filename AS "originalFilename", a.preparation, a.sha256, a.size,
  a.stable_media_id AS "stableMediaId", a.device_id AS "deviceId", a.uploaded_by AS "uploadedBy", a.created_at AS "createdAt",
  a.updated_at AS "updatedAt"`;

/** What media's upload check needs of an asset and its project. */
export interface ProjectAssetCheckRow {
  status: ProjectAssetStatus;
  project_id: string;
  /** bigint, as pg gives it. */
  size: string;
  trashed: boolean;
}

/** How many assets a project holds. */
export interface ProjectAssetCountRow {
  count: number;
}

/** An asset and its workspace, for the deletion event of an asset purged with its project. */
export interface ProjectAssetOwnerRow {
  id: string;
  workspace_id: string;
}
