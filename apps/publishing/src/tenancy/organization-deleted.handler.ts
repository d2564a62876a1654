import { Injectable } from '@nestjs/common';
import { OrganizationDeletedEvent } from '@social/contracts';
import { DurableEventHandler, isUuid } from '@social/platform';
import { DataSource } from 'typeorm';

/**
 * Every table of this schema keyed by workspace, children before parents.
 * A new workspace-owned table is added here, or deleting an organization leaves its rows behind.
 */
export const WORKSPACE_OWNED_TABLES = [
  // Publications take their segments and renditions with them (ON DELETE CASCADE); stored E15 answers hold their content.
  'idempotency_keys',
  'publications',
  'voice_profile_assignments',
  'voice_profiles',
  'social_sets',
  'social_accounts',
  'oauth_states',
] as const;

/** Purges everything publishing keeps for the deleted workspaces, in one transaction. Idempotent: a redelivery deletes nothing more. */
@Injectable()
export class OrganizationDeletedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  async handle(_subject: string, payload: unknown): Promise<void> {
    const event = payload as Partial<OrganizationDeletedEvent> | null;
    // Nothing to purge in an event without workspaces (or of a shape we do not know): acknowledged, not retried forever.
    if (!Array.isArray(event?.workspace_ids) || event.workspace_ids.length === 0) return;
    const workspaceIds = event.workspace_ids.filter(isUuid);
    await this.dataSource.transaction(async (db) => {
      for (const table of WORKSPACE_OWNED_TABLES) await db.query(`DELETE FROM ${table} WHERE workspace_id = ANY($1::uuid[])`, [workspaceIds]);
    });
  }
}
