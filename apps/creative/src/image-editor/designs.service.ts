import { Inject, Injectable } from '@nestjs/common';
import {
  AccountsPatterns,
  AUTOSAVE_TTL_MS,
  AUTOSAVES_KEPT,
  CreateDesignRequest,
  CreateRevisionRequest,
  DESIGN_PAGE_DEFAULT,
  DESIGN_PAGE_MAX_BYTES,
  ExportDesignRequest,
  ImageEditorDesign,
  ImageEditorDesignList,
  ImageEditorDocument,
  ImageEditorRevision,
  ImageEditorRevisionList,
  ListDesignsQuery,
  ListRevisionsQuery,
  MediaItem,
  Principal,
  RevisionSummary,
  RpcRequest,
  UpdateDesignRequest,
  UserProfile,
  WorkspaceRole,
} from '@social/contracts';
import {
  AccessControl,
  CursorCodec,
  isCreatedAtPosition,
  Problem,
  problems,
  RpcClient,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
} from '@social/platform';
import type { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { CreativeConfig } from '../config.js';
import { DesignRenderer } from '../rendering/design-renderer.js';
import { TemplatesService } from '../templates/templates.service.js';
import { documentToStore, normalizeDocument } from './design-document.js';
import {
  DESIGN_COLUMNS,
  DesignRow,
  findDesign,
  LIVE_REVISION,
  REVISION_COLUMNS,
  type RevisionKind,
  RevisionRow,
  toDesign,
  toRevision,
  toRevisionSummary,
} from './design.row.js';

const NO_SUCH_DESIGN = 'No such design.';
const NO_SUCH_REVISION = 'No such revision of this design.';
const isRevisionPosition = (value: unknown): value is { revision: number } =>
  typeof value === 'object' && value !== null && Number.isInteger((value as { revision?: unknown }).revision);

@Injectable()
export class DesignsService {
  private readonly cursors: CursorCodec;

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
    private readonly rpc: RpcClient,
    private readonly templates: TemplatesService,
    private readonly renderer: DesignRenderer,
    @Inject(SERVICE_CONFIG) config: CreativeConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.cursors = CursorCodec.derive(config.SECRETS_KEY, 'creative-designs');
  }

  /** Editors: a design from a document or a template's document, with revision 1 (a checkpoint without a preview). */
  async create(principal: Principal, input: CreateDesignRequest): Promise<ImageEditorDesign> {
    if (input.document !== undefined && input.template_id !== undefined) {
      throw problems.invalid('body.template_id', 'must not be sent with document (send one of them)');
    }
    if (input.document === undefined && input.template_id === undefined)
      throw problems.invalid('body.document', 'is required (or template_id)');
    const workspace = await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    let document: ImageEditorDocument;
    if (input.document) {
      document = documentToStore(input.document, 'body.document');
    } else {
      const template = await this.templates.findUsable(workspace.workspace_id, input.template_id!);
      if (!template)
        throw problems.invalid('body.template_id', 'is not a built-in template nor a template of the workspace', input.template_id);
      document = normalizeDocument(template.document);
    }
    const actorName = await this.authorName(principal);
    const id = uuidv7();
    const revisionId = uuidv7();
    const now = new Date();
    await this.dataSource.transaction(async (db) => {
      await db.query(
        `INSERT INTO image_designs (id, workspace_id, name, document, head_revision_id, last_revision, preview_media_id, created_by,
           created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 1, '', $6, $7, $7)`,
        [id, workspace.workspace_id, input.name, JSON.stringify(document), revisionId, principal.userId, now],
      );
      await this.insertRevision(db, {
        id: revisionId,
        designId: id,
        workspaceId: workspace.workspace_id,
        revision: 1,
        kind: 'checkpoint',
        name: '',
        document,
        cover: '',
        principal,
        actorName,
        now,
        expires: null,
      });
    });
    return toDesign((await findDesign(this.dataSource.manager, id))!);
  }

  /** Viewers: most recently updated first, a page at a time. */
  async list(principal: Principal, query: ListDesignsQuery): Promise<ImageEditorDesignList> {
    const workspace = await this.access.requireWorkspace(principal, query.workspace_id, 'viewer', 'query');
    const filters = { workspace_id: workspace.workspace_id };
    const after = query.cursor ? this.cursors.decode(query.cursor, filters, isCreatedAtPosition) : undefined;
    const limit = query.limit ?? DESIGN_PAGE_DEFAULT;
    const values: unknown[] = [workspace.workspace_id];
    const conditions = ['d.workspace_id = $1'];
    if (after) conditions.push(`(d.updated_at, d.id) < ($${values.push(after.at)}::timestamptz, $${values.push(after.id)}::uuid)`);
    const rows = await this.dataSource.query<DesignRow[]>(
      `SELECT ${DESIGN_COLUMNS} FROM image_designs d WHERE ${conditions.join(' AND ')}
       ORDER BY d.updated_at DESC, d.id DESC LIMIT $${values.push(limit + 1)}`,
      values,
    );
    // At most `limit` designs, and fewer when their documents would make the page too big to send.
    const page: DesignRow[] = [];
    let bytes = 0;
    for (const row of rows.slice(0, limit)) {
      bytes += Buffer.byteLength(JSON.stringify(row.document));
      if (page.length > 0 && bytes > DESIGN_PAGE_MAX_BYTES) break;
      page.push(row);
    }
    const more = rows.length > page.length;
    const last = page[page.length - 1];
    return {
      designs: page.map(toDesign),
      next_cursor: more ? this.cursors.encode({ at: last.updatedAt.toISOString(), id: last.id }, filters) : '',
    };
  }

  async get(principal: Principal, id: string): Promise<ImageEditorDesign> {
    return toDesign(await this.findVisible(principal, id, 'viewer'));
  }

  /** Editors: replaces what is sent and records an autosave revision (kept 7 days; the newest 50 per design). */
  async update(principal: Principal, id: string, input: UpdateDesignRequest): Promise<ImageEditorDesign> {
    await this.findVisible(principal, id, 'editor');
    if (input.name === undefined && input.document === undefined) throw problems.invalid('body', 'must carry name or document');
    const document = input.document ? documentToStore(input.document, 'body.document') : undefined;
    const actorName = await this.authorName(principal);
    await this.dataSource.transaction(async (db) => {
      const design = await findDesign(db, id, true);
      if (!design) throw problems.notFound(NO_SUCH_DESIGN);
      const now = new Date();
      await this.advance(db, design, {
        kind: 'autosave',
        name: '',
        designName: input.name ?? design.name,
        document: document ?? design.document,
        cover: '',
        principal,
        actorName,
        now,
        expires: new Date(now.getTime() + AUTOSAVE_TTL_MS),
      });
      // Autosaves past their week or beyond the newest 50 go (never the head).
      await db.query(
        `DELETE FROM image_design_revisions r WHERE r.design_id = $1 AND r.kind = 'autosave'
           AND r.id <> (SELECT head_revision_id FROM image_designs WHERE id = $1)
           AND (r.expires_at <= now()
                OR r.id NOT IN (SELECT id FROM image_design_revisions
                                WHERE design_id = $1 AND kind = 'autosave' ORDER BY revision DESC LIMIT $2))`,
        [id, AUTOSAVES_KEPT],
      );
    });
    return toDesign((await findDesign(this.dataSource.manager, id))!);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    await this.findVisible(principal, id, 'editor');
    await this.dataSource.query(`DELETE FROM image_designs WHERE id = $1`, [id]);
  }

  /**
   * Editors: a checkpoint (never expires). Its first page is rendered into a media item first: the
   * revision's `cover_preview_media_id`, the design's `preview_media_id` and that page's
   * `preview_media_id`. A page over the render budget (or whose images cannot be read) leaves the
   * checkpoint without a preview rather than refusing it.
   */
  async checkpoint(principal: Principal, id: string, input: CreateRevisionRequest): Promise<RevisionSummary> {
    const design = await this.findVisible(principal, id, 'editor');
    let preview = '';
    try {
      const first = design.document.pages[0];
      preview = (await this.renderer.renderToMedia(principal, design, first.id, 'png', `${design.id}-${first.id}-preview`)).id;
    } catch (error) {
      if (!(error instanceof Problem && error.status === 422)) throw error;
      this.logger.info({ design_id: id, err: error }, 'checkpoint without a preview: the first page cannot be rendered');
    }
    const actorName = await this.authorName(principal);
    const revisionId = await this.dataSource.transaction(async (db) => {
      const locked = await findDesign(db, id, true);
      if (!locked) throw problems.notFound(NO_SUCH_DESIGN);
      const document = locked.document;
      if (preview && document.pages[0]) document.pages[0].preview_media_id = preview;
      return this.advance(db, locked, {
        kind: 'checkpoint',
        name: input.name ?? '',
        designName: locked.name,
        document,
        cover: preview,
        principal,
        actorName,
        now: new Date(),
        expires: null,
        preview: preview || undefined,
      });
    });
    return toRevisionSummary((await this.findRevision(id, revisionId))!, principal.userId);
  }

  async listRevisions(principal: Principal, id: string, query: ListRevisionsQuery): Promise<ImageEditorRevisionList> {
    await this.findVisible(principal, id, 'viewer');
    const filters = { design_id: id };
    const after = query.cursor ? this.cursors.decode(query.cursor, filters, isRevisionPosition) : undefined;
    const limit = query.limit ?? DESIGN_PAGE_DEFAULT;
    const rows = await this.dataSource.query<RevisionRow[]>(
      `SELECT ${REVISION_COLUMNS} FROM image_design_revisions r WHERE r.design_id = $1 AND ${LIVE_REVISION} AND r.revision < $2
       ORDER BY r.revision DESC LIMIT $3`,
      [id, after?.revision ?? 2_147_483_647, limit + 1],
    );
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    return {
      revisions: page.map((row) => toRevisionSummary(row, principal.userId)),
      next_cursor: more ? this.cursors.encode({ revision: page[page.length - 1].revision }, filters) : '',
    };
  }

  /** E21. */
  async getRevision(principal: Principal, id: string, revisionId: string): Promise<ImageEditorRevision> {
    await this.findVisible(principal, id, 'viewer');
    const row = await this.findRevision(id, revisionId, true);
    if (!row) throw problems.notFound(NO_SUCH_REVISION);
    return toRevision(row, principal.userId);
  }

  /** Editors: a new head revision (`restore`) whose document is that of the revision named; the revision itself stays. */
  async restore(principal: Principal, id: string, revisionId: string): Promise<ImageEditorDesign> {
    await this.findVisible(principal, id, 'editor');
    const actorName = await this.authorName(principal);
    await this.dataSource.transaction(async (db) => {
      const design = await findDesign(db, id, true);
      if (!design) throw problems.notFound(NO_SUCH_DESIGN);
      const source = await this.findRevision(id, revisionId, true, db);
      if (!source) throw problems.notFound(NO_SUCH_REVISION);
      await this.advance(db, design, {
        kind: 'restore',
        name: `Restored revision ${source.revision}`,
        designName: design.name,
        document: source.document,
        cover: '',
        principal,
        actorName,
        now: new Date(),
        expires: null,
      });
    });
    return toDesign((await findDesign(this.dataSource.manager, id))!);
  }

  /** Editors: renders one page (default the first) into a media item of the workspace; the page's `latest_export_media_id` points at it. */
  async export(principal: Principal, id: string, input: ExportDesignRequest): Promise<MediaItem> {
    const design = await this.findVisible(principal, id, 'editor');
    const pageId = input.page_id ?? design.document.pages[0].id;
    if (!design.document.pages.some((page) => page.id === pageId))
      throw problems.invalid('body.page_id', 'is not a page of the design', input.page_id);
    const format = input.format ?? 'png';
    const item = await this.renderer.renderToMedia(principal, design, pageId, format, `${design.id}-${pageId}`);
    await this.dataSource.query(
      `UPDATE image_designs SET document = jsonb_set(document, ARRAY['pages', idx::text, 'latest_export_media_id'], to_jsonb($2::text))
       FROM (SELECT ordinality - 1 AS idx
             FROM image_designs, jsonb_array_elements(document -> 'pages') WITH ORDINALITY AS p(page, ordinality)
             WHERE id = $1 AND page ->> 'id' = $3 LIMIT 1) AS found
       WHERE id = $1`,
      [id, item.id, pageId],
    );
    return item;
  }

  private async advance(
    db: EntityManager,
    design: DesignRow,
    change: {
      kind: RevisionKind;
      name: string;
      designName: string;
      document: ImageEditorDocument;
      cover: string;
      principal: Principal;
      actorName: string;
      now: Date;
      expires: Date | null;
      preview?: string;
    },
  ): Promise<string> {
    const revision = design.lastRevision + 1;
    const revisionId = uuidv7();
    await this.insertRevision(db, { ...change, id: revisionId, designId: design.id, workspaceId: design.workspaceId, revision });
    await db.query(
      `UPDATE image_designs SET name = $2, document = $3, head_revision_id = $4, last_revision = $5, updated_at = $6,
         preview_media_id = COALESCE($7, preview_media_id) WHERE id = $1`,
      [design.id, change.designName, JSON.stringify(change.document), revisionId, revision, change.now, change.preview ?? null],
    );
    return revisionId;
  }

  private async insertRevision(
    db: EntityManager,
    r: {
      id: string;
      designId: string;
      workspaceId: string;
      revision: number;
      kind: RevisionKind;
      name: string;
      document: ImageEditorDocument;
      cover: string;
      principal: Principal;
      actorName: string;
      now: Date;
      expires: Date | null;
    },
  ): Promise<void> {
    await db.query(
      `INSERT INTO image_design_revisions (id, design_id, workspace_id, revision, kind, name, document, cover_preview_media_id,
         actor_user_id, actor_name, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        r.id,
        r.designId,
        r.workspaceId,
        r.revision,
        r.kind,
        r.name,
        JSON.stringify(r.document),
        r.cover,
        r.principal.userId,
        r.actorName,
        r.now,
        r.expires,
      ],
    );
  }

  private async findRevision(
    designId: string,
    revisionId: string,
    withDocument = false,
    db: EntityManager = this.dataSource.manager,
  ): Promise<RevisionRow | null> {
    const rows = await db.query<RevisionRow[]>(
      `SELECT ${REVISION_COLUMNS}${withDocument ? ', r.document' : ''} FROM image_design_revisions r
        WHERE r.design_id = $1 AND r.id = $2 AND ${LIVE_REVISION}`,
      [designId, revisionId],
    );
    return rows[0] ?? null;
  }

  /** The author's display name, kept with the revision (`actor.name`); "" when accounts cannot say. */
  private async authorName(principal: Principal): Promise<string> {
    const request: RpcRequest = { principal, params: {}, query: {}, body: null, idempotencyKey: null, clientIp: '' };
    try {
      return (await this.rpc.send<UserProfile>(AccountsPatterns.getProfile, request, { timeoutMs: 2_000 })).display_name;
    } catch (error) {
      this.logger.warn({ err: error }, 'could not read the author name of a revision');
      return '';
    }
  }

  private findVisible(principal: Principal, id: string, need: WorkspaceRole): Promise<DesignRow> {
    return this.access.requireVisible(principal, () => findDesign(this.dataSource.manager, id), need, NO_SUCH_DESIGN);
  }
}
