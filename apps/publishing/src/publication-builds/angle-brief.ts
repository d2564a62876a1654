import type { FieldError, PlanPublicationAnglesRequest } from '@social/contracts';
import { problems } from '@social/platform';
import type { EntityManager } from 'typeorm';

type AccountRef = { platform: string; username: string };

/** What the model is told about the publication: the user message of E16, as JSON. */
export interface AngleBrief {
  idea: string;
  context_notes: string;
  direction: string;
  accounts: AccountRef[];
  /** With its accounts, in the set's order: a set is how a client usually says where it will publish. */
  social_set: { name: string; accounts: AccountRef[] } | null;
  voice: { name: string; definition: unknown } | null;
}

/**
 * Builds the brief from the request, loading what it names from the
 * workspace. Every id must belong to that workspace: one that does not (or
 * does not exist) is 422 at its location, so another tenant's ids reveal
 * nothing. All bad references are reported at once.
 */
export async function loadAngleBrief(db: EntityManager, workspaceId: string, input: PlanPublicationAnglesRequest): Promise<AngleBrief> {
  const errors: FieldError[] = [];
  const accountIds = (input.account_ids ?? []).map((id) => id.toLowerCase());
  const [accounts, set, voice] = await Promise.all([
    accountIds.length === 0
      ? []
      : (db.query(`SELECT id, platform, username FROM social_accounts WHERE workspace_id = $1 AND id = ANY($2::uuid[])`, [
          workspaceId,
          accountIds,
        ]) as Promise<Array<{ id: string; platform: string; username: string }>>),
    input.social_set_id === undefined
      ? undefined
      : (db.query(
          `SELECT s.name, coalesce(json_agg(json_build_object('platform', a.platform, 'username', a.username) ORDER BY m.display_order)
                                   FILTER (WHERE a.id IS NOT NULL), '[]') AS accounts
             FROM social_sets s
             LEFT JOIN social_set_accounts m ON m.social_set_id = s.id
             LEFT JOIN social_accounts a ON a.id = m.social_account_id
            WHERE s.id = $1 AND s.workspace_id = $2
            GROUP BY s.id`,
          [input.social_set_id, workspaceId],
        ) as Promise<Array<{ name: string; accounts: AccountRef[] }>>),
    input.voice_profile_id === undefined
      ? undefined
      : (db.query(`SELECT name, definition FROM voice_profiles WHERE id = $1 AND workspace_id = $2`, [
          input.voice_profile_id,
          workspaceId,
        ]) as Promise<Array<{ name: string; definition: unknown }>>),
  ]);
  const byId = new Map(accounts.map((account) => [account.id, account]));
  accountIds.forEach((id, i) => {
    if (!byId.has(id))
      errors.push({ location: `body.account_ids[${i}]`, message: 'is not an account of this workspace', value: input.account_ids![i] });
  });
  if (set && set.length === 0)
    errors.push({ location: 'body.social_set_id', message: 'is not a social set of this workspace', value: input.social_set_id });
  if (voice && voice.length === 0) {
    errors.push({ location: 'body.voice_profile_id', message: 'is not a voice profile of this workspace', value: input.voice_profile_id });
  }
  if (errors.length > 0) throw problems.validation(errors, errors.map((e) => `${e.location} ${e.message}`).join('; ') + '.');
  return {
    idea: input.idea,
    context_notes: input.context_notes ?? '',
    direction: input.direction ?? '',
    accounts: accountIds.map((id) => ({ platform: byId.get(id)!.platform, username: byId.get(id)!.username })),
    social_set: set ? { name: set[0].name, accounts: set[0].accounts } : null,
    voice: voice ? { name: voice[0].name, definition: voice[0].definition } : null,
  };
}
