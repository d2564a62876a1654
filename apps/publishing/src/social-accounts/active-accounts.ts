import type { FieldError } from '@social/contracts';
import { problems } from '@social/platform';
import type { EntityManager } from 'typeorm';
import type { SocialAccountEntity } from './social-account.entity.js';

/**
 * Checks that every id names an `active` account of the workspace, none twice,
 * and returns them lowercased in the order given; else one 422 naming each bad
 * index (`locationOf(i)`). An unknown id and another tenant's get the same
 * message. The rows are locked FOR SHARE until the transaction ends, so a
 * concurrent disconnect waits and then removes what we wrote, rather than
 * racing the foreign keys.
 */
export async function requireActiveAccounts(
  db: EntityManager,
  workspaceId: string,
  ids: string[],
  locationOf: (index: number) => string,
): Promise<string[]> {
  const wanted = ids.map((id) => id.toLowerCase());
  const rows: Array<Pick<SocialAccountEntity, 'id' | 'status'>> = wanted.length
    ? await db.query(`SELECT id, status FROM social_accounts WHERE id = ANY($1::uuid[]) AND workspace_id = $2 ORDER BY id FOR SHARE`, [
        [...new Set(wanted)],
        workspaceId,
      ])
    : [];
  const statusOf = new Map(rows.map((row) => [row.id, row.status]));
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  wanted.forEach((id, index) => {
    const location = locationOf(index);
    const status = statusOf.get(id);
    if (seen.has(id)) errors.push({ location, message: 'is listed twice', value: ids[index] });
    else if (status === undefined) errors.push({ location, message: 'is not a social account of this workspace', value: ids[index] });
    else if (status !== 'active') errors.push({ location, message: `is ${status}: reconnect it first`, value: ids[index] });
    seen.add(id);
  });
  if (errors.length > 0) throw problems.validation(errors, errors.map((e) => `${e.location} ${e.message}`).join('; ') + '.');
  return wanted;
}
