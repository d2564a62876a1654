import { Inject, Injectable } from '@nestjs/common';
import {
  CreateVideoProjectRequest,
  ListVideoProjectsQuery,
  ListVideoRevisionsQuery,
  Principal,
  ReplaceVideoProjectRequest,
  RestoreVideoRevisionRequest,
  VIDEO_PROJECT_RETENTION_DAYS,
  VIDEO_PROJECTS_PAGE_DEFAULT,
  type VideoDocument,
  VideoProject,
  VideoProjectList,
  VideoProjectRevision,
  VideoProjectSummary,
  VideoRevisionList,
  WorkspaceRole,
} from '@social/contracts';
import {
  AccessControl,
  changedRows,
  createdAtPosition,
  CursorCodec,
  isCreatedAtPosition,
  problems,
  SERVICE_CONFIG,
} from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { CreativeConfig } from '../config.js';
import {
  findProject,
  NO_SUCH_PROJECT,
  PROJECT_SUMMARY_COLUMNS,
  requireNotTrashed,
  syncStateOf,
  toSummary,
  toVideoProject,
  VideoProjectRow,
  type VideoRevisionRow,
  type VideoRevisionTextRow,
} from './video-project.row.js';

interface RevisionPosition {
  revision: number;
}
const isRevisionPosition = (value: unknown): value is RevisionPosition =>
  !!value && Number.isInteger((value as RevisionPosition).revision) && (value as RevisionPosition).revision > 0;

const DAY_MS = 86_400_000;

@Injectable()
export class VideoProjectsService {
  private readonly projectCursors: CursorCodec;
  private readonly revisionCursors: CursorCodec;

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    @Inject(SERVICE_CONFIG) config: CreativeConfig,
  ) {
    this.projectCursors = CursorCodec.derive(config.SECRETS_KEY, 'video-projects');
    this.revisionCursors = CursorCodec.derive(config.SECRETS_KEY, 'video-project-revisions');
  }

  /** `json` is the document's text (checked by the gateway), stored as is; the answer is without it (the gateway has it). */
  async create(principal: Principal, input: Omit<CreateVideoProjectRequest, 'document'>, json: string): Promise<VideoProjectSummary> {
    const workspace = await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    const id = uuidv7();
    const now = new Date();
    return this.dataSource.transaction(async (db) => {
      const state = await syncStateOf(db, id, json);
      await db.query(
        `INSERT INTO video_projects (id, workspace_id, name, document, head_revision, sync_status, attention_reason, created_by, updated_by,
           created_at, updated_at)
         VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $7, $8, $8)`,
        [id, workspace.workspace_id, input.name, json, state.status, state.reason, principal.userId, now],
      );
      await insertRevision(db, id, 1, workspace.workspace_id, input.name, principal.userId, now);
      const [created] = await db.query<VideoProjectRow[]>(`SELECT ${PROJECT_SUMMARY_COLUMNS} FROM video_projects p WHERE p.id = $1`, [id]);
      return toSummary(created);
    });
  }

  /** Newest first (created_at, id); the active projects, or with `trashed=true` the trash. */
  async list(principal: Principal, query: ListVideoProjectsQuery): Promise<VideoProjectList> {
    const workspace = await this.access.requireWorkspace(principal, query.workspace_id, 'viewer', 'query');
    const trashed = query.trashed ?? false;
    const filters = { workspace_id: workspace.workspace_id, trashed };
    const after = query.cursor ? this.projectCursors.decode(query.cursor, filters, isCreatedAtPosition) : undefined;
    const limit = query.limit ?? VIDEO_PROJECTS_PAGE_DEFAULT;
    const values: unknown[] = [workspace.workspace_id, trashed];
    let condition = '';
    if (after) condition = ` AND (p.created_at, p.id) < ($${values.push(after.at)}::timestamptz, $${values.push(after.id)}::uuid)`;
    const rows = await this.dataSource.query<VideoProjectRow[]>(
      `SELECT ${PROJECT_SUMMARY_COLUMNS} FROM video_projects p
        WHERE p.workspace_id = $1 AND (p.trashed_at IS NOT NULL) = $2${condition}
        ORDER BY p.created_at DESC, p.id DESC LIMIT $${values.push(limit + 1)}`,
      values,
    );
    const page = rows.slice(0, limit);
    return {
      projects: page.map(toSummary),
      next_cursor: rows.length > limit ? this.projectCursors.encode(createdAtPosition(page[page.length - 1]), filters) : '',
    };
  }

  async get(principal: Principal, id: string): Promise<VideoProject> {
    return toVideoProject(await this.findVisible(principal, id, 'viewer'));
  }

  /**
   * A new head revision, based on `expected_head_revision`: the check is part of
   * the UPDATE, in the transaction of the revision's insert, so of racing replaces
   * one moves the head and the others change nothing (409 `revision_conflict`).
   */
  async replace(
    principal: Principal,
    id: string,
    input: Omit<ReplaceVideoProjectRequest, 'document'>,
    json: string,
  ): Promise<VideoProjectSummary> {
    const project = await this.findVisible(principal, id, 'editor', false);
    requireOwnWorkspace(project, input.workspace_id);
    requireNotTrashed(project);
    return toSummary(await this.writeHead(principal, project, input.expected_head_revision, input.name ?? null, json));
  }

  /** E19: the revision's content becomes a new head revision (the revision itself stays where it is). */
  async restoreRevision(principal: Principal, id: string, input: RestoreVideoRevisionRequest): Promise<VideoProject> {
    const project = await this.findVisible(principal, id, 'editor', false);
    requireOwnWorkspace(project, input.workspace_id);
    requireNotTrashed(project);
    const [revision] = await this.dataSource.query<VideoRevisionTextRow[]>(
      `SELECT name, document::text AS "documentJson" FROM video_project_revisions WHERE project_id = $1 AND revision = $2`,
      [id, input.revision],
    );
    if (!revision) throw problems.notFound(`The video project has no revision ${input.revision}.`);
    return toVideoProject(
      await this.writeHead(principal, project, null, revision.name, revision.documentJson),
      JSON.parse(revision.documentJson) as VideoDocument,
    );
  }

  async listRevisions(principal: Principal, id: string, query: ListVideoRevisionsQuery): Promise<VideoRevisionList> {
    await this.findVisible(principal, id, 'viewer', false);
    const filters = { project_id: id };
    const after = query.cursor ? this.revisionCursors.decode(query.cursor, filters, isRevisionPosition) : undefined;
    const limit = query.limit ?? VIDEO_PROJECTS_PAGE_DEFAULT;
    const rows = await this.dataSource.query<Array<Omit<VideoRevisionRow, 'document'>>>(
      `SELECT revision, name, created_at, created_by FROM video_project_revisions
        WHERE project_id = $1 AND revision < $2 ORDER BY revision DESC LIMIT $3`,
      [id, after?.revision ?? 2_147_483_647, limit + 1],
    );
    const page = rows.slice(0, limit);
    return {
      revisions: page.map((row) => ({
        revision: row.revision,
        name: row.name,
        created_at: row.created_at.toISOString(),
        created_by_user_id: row.created_by,
      })),
      next_cursor: rows.length > limit ? this.revisionCursors.encode({ revision: page[page.length - 1].revision }, filters) : '',
    };
  }

  async getRevision(principal: Principal, id: string, revision: number): Promise<VideoProjectRevision> {
    await this.findVisible(principal, id, 'viewer', false);
    const [row] = await this.dataSource.query<VideoRevisionRow[]>(
      `SELECT revision, name, document, created_at, created_by FROM video_project_revisions WHERE project_id = $1 AND revision = $2`,
      [id, revision],
    );
    if (!row) throw problems.notFound(`The video project has no revision ${revision}.`);
    return {
      revision: row.revision,
      name: row.name,
      document: row.document,
      created_at: row.created_at.toISOString(),
      created_by_user_id: row.created_by,
    };
  }

  /** To the trash: hidden from the list, restorable for 30 days, then purged by the sweep. Trashing it again changes nothing. */
  async trash(principal: Principal, id: string): Promise<VideoProject> {
    await this.findVisible(principal, id, 'editor', false);
    return this.dataSource.transaction(async (db) => {
      const project = await findProject(db, id, true);
      if (!project) throw problems.notFound(NO_SUCH_PROJECT);
      if (project.trashedAt) return toVideoProject(project);
      const now = new Date();
      await db.query(
        `UPDATE video_projects SET trashed_at = $2, retention_expires_at = $3, updated_at = $2, updated_by = $4 WHERE id = $1`,
        [id, now, new Date(now.getTime() + VIDEO_PROJECT_RETENTION_DAYS * DAY_MS), principal.userId],
      );
      return toVideoProject((await findProject(db, id))!);
    });
  }

  /** Out of the trash (an active project answers itself); a purged one is 404. */
  async restore(principal: Principal, id: string): Promise<VideoProject> {
    await this.findVisible(principal, id, 'editor', false);
    return this.dataSource.transaction(async (db) => {
      const project = await findProject(db, id, true);
      if (!project) throw problems.notFound(NO_SUCH_PROJECT);
      if (!project.trashedAt) return toVideoProject(project);
      await db.query(
        `UPDATE video_projects SET trashed_at = NULL, retention_expires_at = NULL, updated_at = now(), updated_by = $2 WHERE id = $1`,
        [id, principal.userId],
      );
      return toVideoProject((await findProject(db, id))!);
    });
  }

  /**
   * Moves the head by one (only from `expected` when given), with its revision row, in one transaction.
   * `json` is the document's text as stored. Answers the head's row without its document (not read back).
   */
  private writeHead(
    principal: Principal,
    project: VideoProjectRow,
    expected: number | null,
    name: string | null,
    json: string,
  ): Promise<VideoProjectRow> {
    return this.dataSource.transaction(async (db) => {
      const state = await syncStateOf(db, project.id, json);
      const now = new Date();
      const values: unknown[] = [project.id, json, name, state.status, state.reason, now, principal.userId];
      // The answer is built from the row's summary and the document in hand: 200 KB are not read back.
      const moved = await changedRows<VideoProjectRow>(
        db,
        `UPDATE video_projects AS p SET head_revision = head_revision + 1, document = $2, name = coalesce($3, name), sync_status = $4,
                attention_reason = $5, updated_at = $6, updated_by = $7
          WHERE id = $1 AND trashed_at IS NULL${expected === null ? '' : ` AND head_revision = $${values.push(expected)}`}
          RETURNING ${PROJECT_SUMMARY_COLUMNS}`,
        values,
      );
      if (moved.length === 0) {
        const current = await findProject(db, project.id, false, false);
        if (!current) throw problems.notFound(NO_SUCH_PROJECT);
        requireNotTrashed(current);
        throw problems.revisionConflict('video project', current.headRevision, expected);
      }
      const [head] = moved;
      await insertRevision(db, project.id, head.headRevision, project.workspaceId, head.name, principal.userId, now);
      return head;
    });
  }

  private findVisible(principal: Principal, id: string, need: WorkspaceRole, withDocument = true): Promise<VideoProjectRow> {
    return this.access.requireVisible(
      principal,
      () => findProject(this.dataSource.manager, id, false, withDocument),
      need,
      NO_SUCH_PROJECT,
    );
  }
}

function requireOwnWorkspace(project: VideoProjectRow, workspaceId: string): void {
  if (workspaceId.toLowerCase() !== project.workspaceId)
    throw problems.invalid('body.workspace_id', "must be the video project's own workspace", workspaceId);
}

/** The revision row of a head just written: its document copied from the project row in the database, not sent a second time. */
async function insertRevision(
  db: EntityManager,
  projectId: string,
  revision: number,
  workspaceId: string,
  name: string,
  userId: string,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO video_project_revisions (project_id, revision, workspace_id, name, document, created_by, created_at)
     SELECT $1, $2, $3, $4, p.document, $5, $6 FROM video_projects p WHERE p.id = $1`,
    [projectId, revision, workspaceId, name, userId, at],
  );
}
