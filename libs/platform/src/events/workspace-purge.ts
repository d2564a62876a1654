import type { OrganizationDeletedEvent } from '@social/contracts';
import type { DataSource } from 'typeorm';
import { isUuid } from '../validation/validate.js';

/**
 * What a service does with `durable.tenancy.organization-deleted`: deletes the
 * rows of `tables` (each keyed by `workspace_id`, children before parents) for
 * the deleted workspaces, in one transaction. Idempotent: a redelivery deletes
 * nothing more. An event without workspaces, or of a shape we do not know,
 * purges nothing and is acknowledged rather than retried forever.
 */
export async function purgeDeletedWorkspaces(dataSource: DataSource, payload: unknown, tables: readonly string[]): Promise<void> {
  const event = payload as Partial<OrganizationDeletedEvent> | null;
  if (!Array.isArray(event?.workspace_ids) || event.workspace_ids.length === 0) return;
  const workspaceIds = event.workspace_ids.filter(isUuid);
  await dataSource.transaction(async (db) => {
    for (const table of tables) await db.query(`DELETE FROM ${table} WHERE workspace_id = ANY($1::uuid[])`, [workspaceIds]);
  });
}
