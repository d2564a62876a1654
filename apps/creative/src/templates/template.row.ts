import type { ImageEditorDocument } from '@social/contracts';

/** A workspace's own template (`image_templates`) as TEMPLATE_COLUMNS selects it. */
export interface TemplateRow {
  id: string;
  workspaceId: string;
  name: string;
  category: string;
  presetKey: string;
  document: ImageEditorDocument;
  createdAt: Date;
  updatedAt: Date;
}

export const TEMPLATE_COLUMNS = `id, workspace_id AS "workspaceId", name, category, preset_key AS "presetKey", document,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** How many templates a workspace holds. */
export interface TemplateCountRow {
  count: number;
}
