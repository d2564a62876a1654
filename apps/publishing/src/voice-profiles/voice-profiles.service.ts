import { Injectable } from '@nestjs/common';
import {
  AssignVoiceProfileRequest,
  CreateVoiceProfileRequest,
  MAX_VOICE_PROFILES_PER_WORKSPACE,
  Principal,
  ReplaceVoiceProfileRequest,
  VOICE_DEFINITION_SCHEMA_VERSION,
  VoiceProfile,
  VoiceProfileList,
} from '@social/contracts';
import { AccessControl, explainingConstraint, problems } from '@social/platform';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { requireActiveAccounts } from '../social-accounts/active-accounts.js';
import { completeDefinition } from './voice-definition.js';
import { VoiceProfileEntity } from './voice-profile.entity.js';

const NAME_INDEX = 'voice_profiles_workspace_name_key';

const notFound = () => problems.notFound('No such voice profile.');

const saveOrExplain = <T>(write: () => Promise<T>): Promise<T> =>
  explainingConstraint(write, NAME_INDEX, () =>
    problems.conflict('duplicate_name', 'This workspace already has a voice profile with that name.'),
  );

@Injectable()
export class VoiceProfilesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
  ) {}

  async list(principal: Principal, workspaceId: string): Promise<VoiceProfileList> {
    const workspace = await this.access.requireWorkspace(principal, workspaceId, 'viewer', 'query');
    const profiles = await this.dataSource
      .getRepository(VoiceProfileEntity)
      .createQueryBuilder('p')
      .where('p.workspace_id = :workspaceId', { workspaceId: workspace.workspace_id })
      .orderBy('lower(p.name)')
      .addOrderBy('p.id')
      .getMany();
    return { voice_profiles: await this.present(this.dataSource.manager, profiles) };
  }

  async get(principal: Principal, id: string): Promise<VoiceProfile> {
    const [profile] = await this.present(this.dataSource.manager, [await this.findVisible(principal, id, 'viewer')]);
    return profile;
  }

  async create(principal: Principal, input: CreateVoiceProfileRequest): Promise<VoiceProfile> {
    const { workspace_id: workspaceId } = await this.access.requireWorkspace(principal, input.workspace_id, 'editor', 'body');
    return this.dataSource.transaction(async (db) => {
      // Creates take turns per workspace: the count cap and the one default cannot race.
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`voice_profiles:${workspaceId}`]);
      const repository = db.getRepository(VoiceProfileEntity);
      if ((await repository.countBy({ workspaceId })) >= MAX_VOICE_PROFILES_PER_WORKSPACE) {
        throw problems.conflict(
          'too_many_voice_profiles',
          `A workspace has at most ${MAX_VOICE_PROFILES_PER_WORKSPACE} voice profiles; delete one first.`,
        );
      }
      const now = new Date();
      const profile: VoiceProfileEntity = {
        id: uuidv7(),
        workspaceId,
        name: input.name,
        definition: completeDefinition(input.definition),
        isDefault: input.is_default ?? false,
        revision: 1,
        schemaVersion: VOICE_DEFINITION_SCHEMA_VERSION,
        createdAt: now,
        updatedAt: now,
      };
      if (profile.isDefault) {
        await db.query('UPDATE voice_profiles SET is_default = false, updated_at = $2 WHERE workspace_id = $1 AND is_default', [
          workspaceId,
          now,
        ]);
      }
      await saveOrExplain(() => repository.insert(profile));
      return toVoiceProfile(profile, []);
    });
  }

  /**
   * E14. The revision check is part of the UPDATE itself: of two requests based
   * on the same revision, the second finds the row already moved on and changes nothing.
   */
  async replace(principal: Principal, id: string, input: ReplaceVoiceProfileRequest): Promise<VoiceProfile> {
    const { workspaceId } = await this.findVisible(principal, id, 'editor');
    if (input.workspace_id.toLowerCase() !== workspaceId) {
      throw problems.invalid('body.workspace_id', "must be the voice profile's own workspace", input.workspace_id);
    }
    return this.dataSource.transaction(async (db) => {
      const result = await saveOrExplain(() =>
        db
          .createQueryBuilder()
          .update(VoiceProfileEntity)
          .set({
            name: input.name,
            definition: completeDefinition(input.definition),
            revision: () => 'revision + 1',
            updatedAt: new Date(),
          })
          .where('id = :id AND revision = :expected', { id, expected: input.expected_revision })
          .execute(),
      );
      if (!result.affected) {
        const current = await db.getRepository(VoiceProfileEntity).findOneBy({ id });
        if (!current) throw notFound();
        throw problems.revisionConflict('voice profile', current.revision, input.expected_revision);
      }
      const [answer] = await this.present(db, [await db.getRepository(VoiceProfileEntity).findOneByOrFail({ id })]);
      return answer;
    });
  }

  /** The profile's accounts become exactly `account_ids`; an account assigned elsewhere moves here (one profile per account). */
  async assign(principal: Principal, id: string, input: AssignVoiceProfileRequest): Promise<VoiceProfile> {
    const { workspaceId } = await this.findVisible(principal, id, 'editor');
    return this.dataSource.transaction(async (db) => {
      // Held until commit: a concurrent delete of the profile waits, then removes what we wrote.
      const [profile] = await db.getRepository(VoiceProfileEntity).find({ where: { id }, lock: { mode: 'for_key_share' } });
      if (!profile) throw notFound();
      const accountIds = await requireActiveAccounts(db, workspaceId, input.account_ids, (index) => `body.account_ids[${index}]`);
      await db.query('DELETE FROM voice_profile_assignments WHERE voice_profile_id = $1 AND social_account_id <> ALL($2::uuid[])', [
        id,
        accountIds,
      ]);
      if (accountIds.length > 0) {
        await db.query(
          `INSERT INTO voice_profile_assignments (social_account_id, voice_profile_id, workspace_id)
           SELECT account_id, $2, $3 FROM unnest($1::uuid[]) AS account_id ORDER BY account_id
           ON CONFLICT (social_account_id) DO UPDATE SET voice_profile_id = EXCLUDED.voice_profile_id`,
          [accountIds, id, workspaceId],
        );
      }
      const [answer] = await this.present(db, [profile]);
      return answer;
    });
  }

  async delete(principal: Principal, id: string): Promise<void> {
    await this.findVisible(principal, id, 'editor');
    const result = await this.dataSource.getRepository(VoiceProfileEntity).delete({ id });
    if (!result.affected) throw notFound();
  }

  /** A path-addressed profile: 404 unless the caller can see its workspace, 403 when their role is below `need`. */
  private findVisible(principal: Principal, id: string, need: 'viewer' | 'editor'): Promise<VoiceProfileEntity> {
    return this.access.requireVisible(
      principal,
      () => this.dataSource.getRepository(VoiceProfileEntity).findOneBy({ id }),
      need,
      'No such voice profile.',
    );
  }

  private async present(db: EntityManager, profiles: VoiceProfileEntity[]): Promise<VoiceProfile[]> {
    if (profiles.length === 0) return [];
    const rows: Array<{ voice_profile_id: string; social_account_id: string }> = await db.query(
      `SELECT v.voice_profile_id, v.social_account_id
         FROM voice_profile_assignments v JOIN social_accounts a ON a.id = v.social_account_id
        WHERE v.voice_profile_id = ANY($1::uuid[])
        ORDER BY a.created_at, a.id`,
      [profiles.map((profile) => profile.id)],
    );
    const assigned = new Map<string, string[]>();
    for (const row of rows) assigned.set(row.voice_profile_id, [...(assigned.get(row.voice_profile_id) ?? []), row.social_account_id]);
    return profiles.map((profile) => toVoiceProfile(profile, assigned.get(profile.id) ?? []));
  }
}

function toVoiceProfile(profile: VoiceProfileEntity, assignedAccountIds: string[]): VoiceProfile {
  return {
    id: profile.id,
    workspace_id: profile.workspaceId,
    name: profile.name,
    is_default: profile.isDefault,
    definition: profile.definition,
    revision: profile.revision,
    schema_version: profile.schemaVersion,
    assigned_account_ids: assignedAccountIds,
    created_at: profile.createdAt.toISOString(),
    updated_at: profile.updatedAt.toISOString(),
  };
}
