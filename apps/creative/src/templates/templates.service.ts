import { Injectable } from '@nestjs/common';
import {
  CreateTemplateRequest,
  ImageEditorTemplate,
  ImageEditorTemplateList,
  ListTemplatesQuery,
  MAX_TEMPLATES_PER_WORKSPACE,
  TEMPLATE_DOCUMENT_MAX_BYTES,
  Principal,
} from '@social/contracts';
import { AccessControl, isUuid, problems } from '@social/platform';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { documentToStore } from '../image-editor/design-document.js';
import { BUILT_IN_TEMPLATES } from './built-in-templates.js';
import { TEMPLATE_COLUMNS, type TemplateCountRow, type TemplateRow } from './template.row.js';

const NO_SUCH_TEMPLATE = 'No such template.';

const toTemplate = (row: TemplateRow): ImageEditorTemplate => ({
  id: row.id,
  built_in: false,
  workspace_id: row.workspaceId,
  name: row.name,
  category: row.category,
  preset_key: row.presetKey,
  preview_media_id: '',
  document: row.document,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

@Injectable()
export class TemplatesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
  ) {}

  /** E22: the built-in set first, then the workspace's, newest first; `can_edit` for editors and admins. */
  async list(principal: Principal, query: ListTemplatesQuery): Promise<ImageEditorTemplateList> {
    const workspace = await this.access.requireWorkspace(principal, query.workspace_id, 'viewer', 'query');
    const rows = await this.dataSource.query<TemplateRow[]>(
      `SELECT ${TEMPLATE_COLUMNS} FROM image_templates WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC`,
      [workspace.workspace_id],
    );
    return { can_edit: workspace.role !== 'viewer', templates: [...BUILT_IN_TEMPLATES, ...rows.map(toTemplate)] };
  }

  /** Editors; at most 50 per workspace (409 `too_many_templates`), counted under a per-workspace lock. */
  async create(principal: Principal, input: CreateTemplateRequest): Promise<ImageEditorTemplate> {
    const workspace = await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    const document = documentToStore(input.document, 'body.document', TEMPLATE_DOCUMENT_MAX_BYTES);
    const id = uuidv7();
    await this.dataSource.transaction(async (db) => {
      await db.query(`SELECT pg_advisory_xact_lock(hashtext('creative.templates:' || $1))`, [workspace.workspace_id]);
      const [{ count }] = await db.query<TemplateCountRow[]>(`SELECT count(*)::int AS count FROM image_templates WHERE workspace_id = $1`, [
        workspace.workspace_id,
      ]);
      if (count >= MAX_TEMPLATES_PER_WORKSPACE) {
        throw problems.conflict(
          'too_many_templates',
          `A workspace has at most ${MAX_TEMPLATES_PER_WORKSPACE} templates; delete one first.`,
        );
      }
      const now = new Date();
      await db.query(
        `INSERT INTO image_templates (id, workspace_id, name, category, preset_key, document, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        [
          id,
          workspace.workspace_id,
          input.name,
          input.category,
          document.preset_key ?? '',
          JSON.stringify(document),
          principal.userId,
          now,
        ],
      );
    });
    return toTemplate((await this.find(id))!);
  }

  /** Viewers: a built-in template by its preset key, or one of a workspace's by id. */
  async get(principal: Principal, id: string): Promise<ImageEditorTemplate> {
    const builtIn = BUILT_IN_TEMPLATES.find((template) => template.id === id);
    if (builtIn) return builtIn;
    if (!isUuid(id)) throw problems.notFound(NO_SUCH_TEMPLATE);
    return toTemplate(await this.access.requireVisible(principal, () => this.find(id.toLowerCase()), 'viewer', NO_SUCH_TEMPLATE));
  }

  /** Editors. A built-in template is 409 `template_built_in` (it is everyone's); anything else unknown 404. */
  async delete(principal: Principal, id: string): Promise<void> {
    if (BUILT_IN_TEMPLATES.some((template) => template.id === id)) {
      throw problems.conflict('template_built_in', 'Built-in templates cannot be deleted.');
    }
    if (!isUuid(id)) throw problems.notFound(NO_SUCH_TEMPLATE);
    const templateId = id.toLowerCase();
    await this.access.requireVisible(principal, () => this.find(templateId), 'editor', NO_SUCH_TEMPLATE);
    await this.dataSource.query(`DELETE FROM image_templates WHERE id = $1`, [templateId]);
  }

  /** A template a design of the workspace may start from: built-in by preset key, or one of the workspace's by id. */
  async findUsable(workspaceId: string, id: string): Promise<ImageEditorTemplate | null> {
    const builtIn = BUILT_IN_TEMPLATES.find((template) => template.id === id);
    if (builtIn) return builtIn;
    if (!isUuid(id)) return null;
    const row = await this.find(id.toLowerCase());
    return row && row.workspaceId === workspaceId ? toTemplate(row) : null;
  }

  private async find(id: string): Promise<TemplateRow | null> {
    const rows = await this.dataSource.query<TemplateRow[]>(`SELECT ${TEMPLATE_COLUMNS} FROM image_templates WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }
}
