import { Injectable } from '@nestjs/common';
import { DurableEventHandler, purgeDeletedWorkspaces } from '@social/platform';
import { DataSource } from 'typeorm';

/** Purges what creative keeps for the deleted workspaces (every table with a workspace_id). */
@Injectable()
export class OrganizationDeletedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  handle(_subject: string, payload: unknown): Promise<void> {
    return purgeDeletedWorkspaces(this.dataSource, payload, ['image_design_revisions', 'image_designs', 'image_templates']);
  }
}
