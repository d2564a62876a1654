import { Injectable } from '@nestjs/common';
import {
  CreateSocialSetRequest,
  MAX_SOCIAL_SETS_PER_WORKSPACE,
  Principal,
  ReplaceSocialSetRequest,
  SocialSet,
  SocialSetAccount,
  SocialSetAccountRef,
  SocialSetList,
} from '@social/contracts';
import { AccessControl, explainingConstraint, problems } from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { requireActiveAccounts } from '../social-accounts/active-accounts.js';
import { SocialSetEntity } from './social-set.entity.js';

const NAME_INDEX = 'social_sets_workspace_name_key';

interface MemberRow {
  social_set_id: string;
  social_account_id: string;
  platform: string;
  account_username: string;
  account_avatar_url: string;
  display_order: number;
  default_output_profile: string;
  default_settings: Record<string, unknown>;
  default_segment_settings: Record<string, unknown>;
}

const duplicateName = () => problems.conflict('duplicate_name', 'This workspace already has a social set with that name.');

@Injectable()
export class SocialSetsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
  ) {}

  async list(principal: Principal, workspaceId: string): Promise<SocialSetList> {
    const workspace = await this.access.requireWorkspace(principal, workspaceId, 'viewer', 'query');
    const sets = await this.dataSource
      .getRepository(SocialSetEntity)
      .createQueryBuilder('s')
      .where('s.workspace_id = :workspaceId', { workspaceId: workspace.workspace_id })
      .orderBy('lower(s.name)')
      .addOrderBy('s.id')
      .getMany();
    return { social_sets: await this.present(this.dataSource.manager, sets) };
  }

  async get(principal: Principal, id: string): Promise<SocialSet> {
    const [set] = await this.present(this.dataSource.manager, [await this.findVisible(principal, id, 'viewer')]);
    return set;
  }

  async create(principal: Principal, input: CreateSocialSetRequest): Promise<SocialSet> {
    const { workspace_id: workspaceId } = await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    return this.dataSource.transaction(async (db) => {
      await lockSets(db, workspaceId);
      const accountIds = await requireMembers(db, workspaceId, input.accounts);
      if ((await db.getRepository(SocialSetEntity).countBy({ workspaceId })) >= MAX_SOCIAL_SETS_PER_WORKSPACE) {
        throw problems.conflict(
          'too_many_social_sets',
          `A workspace has at most ${MAX_SOCIAL_SETS_PER_WORKSPACE} social sets; delete one first.`,
        );
      }
      const now = new Date();
      const set: SocialSetEntity = {
        id: uuidv7(),
        workspaceId,
        name: input.name,
        isDefault: input.is_default ?? false,
        createdAt: now,
        updatedAt: now,
      };
      if (set.isDefault) await clearDefault(db, workspaceId, now);
      await saveOrExplain(() => db.getRepository(SocialSetEntity).insert(set));
      await writeMembers(db, set.id, accountIds);
      const [answer] = await this.present(db, [set]);
      return answer;
    });
  }

  /** E13: name, default flag and membership, all at once. Members that stay keep their per-account defaults. */
  async replace(principal: Principal, id: string, input: ReplaceSocialSetRequest): Promise<SocialSet> {
    const { workspaceId } = await this.findVisible(principal, id, 'editor');
    return this.dataSource.transaction(async (db) => {
      await lockSets(db, workspaceId);
      // Read again under the lock: a concurrent delete wins cleanly.
      const set = await db.getRepository(SocialSetEntity).findOneBy({ id });
      if (!set) throw problems.notFound('No such social set.');
      const accountIds = await requireMembers(db, workspaceId, input.accounts);
      const now = new Date();
      if (input.is_default && !set.isDefault) await clearDefault(db, workspaceId, now);
      Object.assign(set, { name: input.name, isDefault: input.is_default, updatedAt: now });
      await saveOrExplain(() =>
        db.getRepository(SocialSetEntity).update({ id }, { name: set.name, isDefault: set.isDefault, updatedAt: set.updatedAt }),
      );
      await writeMembers(db, id, accountIds);
      const [answer] = await this.present(db, [set]);
      return answer;
    });
  }

  async delete(principal: Principal, id: string): Promise<void> {
    await this.findVisible(principal, id, 'editor');
    const result = await this.dataSource.getRepository(SocialSetEntity).delete({ id });
    if (!result.affected) throw problems.notFound('No such social set.');
  }

  /** A path-addressed set: 404 unless the caller can see its workspace, 403 when their role is below `need`. */
  private findVisible(principal: Principal, id: string, need: 'viewer' | 'editor'): Promise<SocialSetEntity> {
    return this.access.requireVisible(
      principal,
      () => this.dataSource.getRepository(SocialSetEntity).findOneBy({ id }),
      need,
      'No such social set.',
    );
  }

  /** The published shape; members' network, handle and avatar are read now, so renames show at once. */
  private async present(db: EntityManager, sets: SocialSetEntity[]): Promise<SocialSet[]> {
    if (sets.length === 0) return [];
    const rows: MemberRow[] = await db.query(
      `SELECT m.social_set_id, m.social_account_id, a.platform, a.username AS account_username, a.avatar_url AS account_avatar_url,
              (row_number() OVER (PARTITION BY m.social_set_id ORDER BY m.display_order) - 1)::int AS display_order,
              m.default_output_profile, m.default_settings, m.default_segment_settings
         FROM social_set_accounts m JOIN social_accounts a ON a.id = m.social_account_id
        WHERE m.social_set_id = ANY($1::uuid[])
        ORDER BY m.social_set_id, m.display_order`,
      [sets.map((set) => set.id)],
    );
    const membersOf = new Map<string, SocialSetAccount[]>();
    for (const { social_set_id: setId, ...member } of rows) {
      membersOf.set(setId, [...(membersOf.get(setId) ?? []), member]);
    }
    return sets.map((set) => ({
      id: set.id,
      workspace_id: set.workspaceId,
      name: set.name,
      is_default: set.isDefault,
      accounts: membersOf.get(set.id) ?? [],
      created_at: set.createdAt.toISOString(),
      updated_at: set.updatedAt.toISOString(),
    }));
  }
}

/** Every write to a workspace's sets takes its turn: the count cap, the one default and the name check cannot race. */
async function lockSets(db: EntityManager, workspaceId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`social_sets:${workspaceId}`]);
}

function requireMembers(db: EntityManager, workspaceId: string, accounts: SocialSetAccountRef[]): Promise<string[]> {
  return requireActiveAccounts(
    db,
    workspaceId,
    accounts.map((account) => account.social_account_id),
    (index) => `body.accounts[${index}].social_account_id`,
  );
}

/** The workspace's current default stops being one (and shows it changed). */
async function clearDefault(db: EntityManager, workspaceId: string, now: Date): Promise<void> {
  await db.query('UPDATE social_sets SET is_default = false, updated_at = $2 WHERE workspace_id = $1 AND is_default', [workspaceId, now]);
}

async function saveOrExplain(write: () => Promise<unknown>): Promise<void> {
  await explainingConstraint(write, NAME_INDEX, duplicateName);
}

/** Members become exactly `accountIds`, positioned in that order; rows of members that stay are updated, not replaced. */
async function writeMembers(db: EntityManager, setId: string, accountIds: string[]): Promise<void> {
  await db.query('DELETE FROM social_set_accounts WHERE social_set_id = $1 AND social_account_id <> ALL($2::uuid[])', [setId, accountIds]);
  if (accountIds.length === 0) return;
  await db.query(
    `INSERT INTO social_set_accounts (social_set_id, social_account_id, display_order)
     SELECT $1, member.id, member.position - 1 FROM unnest($2::uuid[]) WITH ORDINALITY AS member (id, position)
     ON CONFLICT (social_set_id, social_account_id) DO UPDATE SET display_order = EXCLUDED.display_order`,
    [setId, accountIds],
  );
}
