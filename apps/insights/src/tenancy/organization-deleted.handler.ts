import { Injectable } from '@nestjs/common';
import { DurableEventHandler, purgeDeletedWorkspaces } from '@social/platform';
import { DataSource } from 'typeorm';

/** Every insights table keyed by workspace, children before parents. */
export const INSIGHTS_WORKSPACE_TABLES = [
  'sync_jobs',
  'rendition_metrics',
  'renditions',
  'account_snapshots',
  'growth_items',
  'growth_sync_states',
  'accounts',
] as const;

/** Purges what insights keeps for the deleted workspaces (every table with a workspace_id). */
@Injectable()
export class OrganizationDeletedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  handle(_subject: string, payload: unknown): Promise<void> {
    return purgeDeletedWorkspaces(this.dataSource, payload, INSIGHTS_WORKSPACE_TABLES);
  }
}
