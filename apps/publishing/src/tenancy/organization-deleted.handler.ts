import { Injectable } from '@nestjs/common';
import { DurableEventHandler, purgeDeletedWorkspaces } from '@social/platform';
import { DataSource } from 'typeorm';

/**
 * Every table of this schema keyed by workspace, children before parents.
 * A new workspace-owned table is added here, or deleting an organization leaves its rows behind.
 */
export const WORKSPACE_OWNED_TABLES = [
  // Publications take their segments and renditions with them (ON DELETE CASCADE); stored E15 answers hold their content.
  'idempotency_keys',
  'publications',
  'media_facts',
  'voice_profile_assignments',
  'voice_profiles',
  'social_sets',
  'social_accounts',
  'oauth_states',
] as const;

/** Purges everything publishing keeps for the deleted workspaces. */
@Injectable()
export class OrganizationDeletedHandler implements DurableEventHandler {
  constructor(private readonly dataSource: DataSource) {}

  handle(_subject: string, payload: unknown): Promise<void> {
    return purgeDeletedWorkspaces(this.dataSource, payload, WORKSPACE_OWNED_TABLES);
  }
}
