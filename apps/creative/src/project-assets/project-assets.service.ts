import { Injectable } from '@nestjs/common';
import {
  CreateProjectAssetRequest,
  MAX_PROJECT_ASSETS,
  Principal,
  PROJECT_ASSET_DELETED_SUBJECT,
  ProjectAsset,
  ProjectAssetCheck,
  ProjectAssetDeletedEvent,
  ProjectAssetList,
  referencedIds,
  WorkspaceRole,
} from '@social/contracts';
import { AccessControl, changedRows, enqueueEvent, problems } from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  findProject,
  NO_SUCH_PROJECT,
  refreshSyncStatus,
  requireNotTrashed,
  VideoProjectRow,
} from '../video-projects/video-project.row.js';
import { ASSET_COLUMNS, type ProjectAssetCheckRow, type ProjectAssetCountRow, type ProjectAssetRow } from './project-asset.row.js';

/** Largest `preparation` kept with an asset, as JSON text. */
const MAX_PREPARATION_BYTES = 16 * 1024;
const NO_SUCH_ASSET = 'No such project asset.';

function toProjectAsset(row: ProjectAssetRow, required: Set<string>): ProjectAsset {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    project_id: row.projectId,
    status: row.status,
    attention_reason: row.attentionReason,
    media_id: row.mediaId ?? '',
    mime_type: row.mimeType,
    original_filename: row.originalFilename,
    preparation: row.preparation,
    required: required.has(row.id),
    sha256: row.sha256,
    size: Number(row.size),
    stable_media_id: row.stableMediaId,
    device_id: row.deviceId,
    uploaded_by_user_id: row.uploadedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Tells media to drop the asset's items (its bytes), in the transaction that removes the asset. */
export async function announceAssetDeleted(db: EntityManager, workspaceId: string, assetId: string): Promise<void> {
  await enqueueEvent(db, PROJECT_ASSET_DELETED_SUBJECT, {
    workspace_id: workspaceId,
    project_asset_id: assetId,
  } satisfies ProjectAssetDeletedEvent);
}

@Injectable()
export class ProjectAssetsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
  ) {}

  /** E20: a pending asset of the project; its bytes come through E17 with `project_asset_id`. */
  async create(principal: Principal, projectId: string, input: CreateProjectAssetRequest): Promise<ProjectAsset> {
    const project = await this.findProject(principal, projectId, 'editor');
    if (input.workspace_id.toLowerCase() !== project.workspaceId) {
      throw problems.invalid('body.workspace_id', "must be the video project's own workspace", input.workspace_id);
    }
    const preparation = input.preparation ?? {};
    if (Buffer.byteLength(JSON.stringify(preparation)) > MAX_PREPARATION_BYTES) {
      throw problems.invalid('body.preparation', `must be at most ${MAX_PREPARATION_BYTES} bytes of JSON`);
    }
    return this.dataSource.transaction(async (db) => {
      // Locked: a trash or another reservation of the project waits; the cap cannot race.
      const locked = await findProject(db, projectId, true);
      if (!locked) throw problems.notFound(NO_SUCH_PROJECT);
      requireNotTrashed(locked);
      const [{ count }] = await db.query<ProjectAssetCountRow[]>(
        `SELECT count(*)::int AS count FROM project_assets WHERE project_id = $1`,
        [projectId],
      );
      if (count >= MAX_PROJECT_ASSETS) {
        throw problems.conflict('too_many_project_assets', `A video project has at most ${MAX_PROJECT_ASSETS} assets; delete one first.`);
      }
      const id = uuidv7();
      const now = new Date();
      await db.query(
        `INSERT INTO project_assets (id, workspace_id, project_id, status, mime_type, original_filename, preparation, size, stable_media_id,
                                     device_id, uploaded_by, created_at, updated_at)
         VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, $9, $10, $11, $11)`,
        [
          id,
          project.workspaceId,
          projectId,
          input.mime_type.toLowerCase(),
          input.original_filename,
          JSON.stringify(preparation),
          input.size,
          input.stable_media_id ?? '',
          input.device_id ?? '',
          principal.userId,
          now,
        ],
      );
      return toProjectAsset((await this.findAsset(db, projectId, id))!, referencedIds(locked.documentJson!));
    });
  }

  async list(principal: Principal, projectId: string): Promise<ProjectAssetList> {
    const project = await this.findProject(principal, projectId, 'viewer');
    const rows = await this.dataSource.query<ProjectAssetRow[]>(
      `SELECT ${ASSET_COLUMNS} FROM project_assets a WHERE a.project_id = $1 ORDER BY a.created_at, a.id`,
      [projectId],
    );
    const required = referencedIds(project.documentJson!);
    return { assets: rows.map((row) => toProjectAsset(row, required)) };
  }

  async get(principal: Principal, projectId: string, assetId: string): Promise<ProjectAsset> {
    const project = await this.findProject(principal, projectId, 'viewer');
    const row = await this.findAsset(this.dataSource.manager, projectId, assetId);
    if (!row) throw problems.notFound(NO_SUCH_ASSET);
    return toProjectAsset(row, referencedIds(project.documentJson!));
  }

  /** The asset goes, and media drops its bytes (event); it no longer counts for the project's sync status. */
  async delete(principal: Principal, projectId: string, assetId: string): Promise<void> {
    await this.findProject(principal, projectId, 'editor');
    await this.dataSource.transaction(async (db) => {
      const project = await findProject(db, projectId, true);
      if (!project) throw problems.notFound(NO_SUCH_PROJECT);
      requireNotTrashed(project);
      const deleted = await changedRows(db, `DELETE FROM project_assets WHERE id = $1 AND project_id = $2 RETURNING workspace_id`, [
        assetId,
        projectId,
      ]);
      if (deleted.length === 0) throw problems.notFound(NO_SUCH_ASSET);
      await announceAssetDeleted(db, project.workspaceId, assetId);
      await refreshSyncStatus(db, projectId);
    });
  }

  /** Internal (media at E17): the asset exists in the workspace, its project is not trashed, and it is still pending. */
  async check(workspaceId: string, assetId: string): Promise<ProjectAssetCheck> {
    const [row] = await this.dataSource.query<ProjectAssetCheckRow[]>(
      `SELECT a.status, a.project_id, a.size, p.trashed_at IS NOT NULL AS trashed
         FROM project_assets a JOIN video_projects p ON p.id = a.project_id
        WHERE a.id = $1 AND a.workspace_id = $2`,
      [assetId, workspaceId],
    );
    if (!row) throw problems.notFound(NO_SUCH_ASSET);
    if (row.trashed) throw problems.conflict('project_trashed', "The asset's video project is in the trash; restore it first.");
    if (row.status !== 'pending')
      throw problems.conflict('project_asset_not_pending', `The project asset is ${row.status}; reserve a new one for other bytes.`);
    return { project_asset_id: assetId, project_id: row.project_id, size: Number(row.size) };
  }

  private findProject(principal: Principal, projectId: string, need: WorkspaceRole): Promise<VideoProjectRow> {
    return this.access.requireVisible(principal, () => findProject(this.dataSource.manager, projectId), need, NO_SUCH_PROJECT);
  }

  private async findAsset(db: EntityManager, projectId: string, assetId: string): Promise<ProjectAssetRow | null> {
    const [row] = await db.query<ProjectAssetRow[]>(`SELECT ${ASSET_COLUMNS} FROM project_assets a WHERE a.id = $1 AND a.project_id = $2`, [
      assetId,
      projectId,
    ]);
    return row ?? null;
  }
}
