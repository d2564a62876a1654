import { Injectable } from '@nestjs/common';
import type { OrganizationDeletedEvent } from '@social/contracts';
import { DurableEventHandler, isUuid, purgeDeletedWorkspaces } from '@social/platform';
import { DataSource } from 'typeorm';

/** Children before parents: every table of creative with a workspace_id. */
const WORKSPACE_OWNED_TABLES = [
  'project_assets',
  'video_project_revisions',
  'video_projects',
  'image_design_revisions',
  'image_designs',
  'image_templates',
] as const;

/**
 * Purges what creative keeps for the deleted workspaces (every table with a
 * workspace_id) and the organization's theme settings. Idempotent. Media purges
 * the workspaces' items (project assets' bytes too) on the same event.
 */
@Injectable()
export class OrganizationDeletedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    await purgeDeletedWorkspaces(this.dataSource, payload, WORKSPACE_OWNED_TABLES);
    const organizationId = (payload as Partial<OrganizationDeletedEvent> | null)?.organization_id;
    if (isUuid(organizationId))
      await this.dataSource.query(`DELETE FROM organization_theme_settings WHERE organization_id = $1`, [organizationId]);
  }
}
