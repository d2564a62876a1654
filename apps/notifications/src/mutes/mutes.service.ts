import { Injectable } from '@nestjs/common';
import { CreateMuteRequest, NotificationMute, NotificationMuteList, Principal } from '@social/contracts';
import { AccessControl, isUuid, problems } from '@social/platform';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, MoreThan } from 'typeorm';
import { MuteEntity } from './mute.entity.js';

/** Enough for any real schedule, small enough that the preferences answer stays small. */
export const MAX_ACTIVE_MUTES = 50;

/** The one place a mute becomes its published shape (times may arrive as Dates or as PostgreSQL JSON strings). */
export function toNotificationMute(
  mute: Pick<MuteEntity, 'id' | 'workspaceId' | 'workspaceName'> & {
    startsAt: Date | string;
    endsAt: Date | string;
  },
): NotificationMute {
  return {
    id: mute.id,
    scope: mute.workspaceId ? 'workspace' : 'account',
    workspace_id: mute.workspaceId ?? '',
    workspace_name: mute.workspaceName,
    starts_at: new Date(mute.startsAt).toISOString(),
    ends_at: new Date(mute.endsAt).toISOString(),
  };
}

@Injectable()
export class MutesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessControl,
  ) {}

  async create(principal: Principal, input: CreateMuteRequest): Promise<NotificationMute> {
    const userId = principal.userId;
    const startsAt = new Date(input.starts_at);
    const endsAt = new Date(input.ends_at);
    if (endsAt <= startsAt) throw problems.invalid('body.ends_at', 'must be later than starts_at', input.ends_at);
    if (endsAt <= new Date()) throw problems.invalid('body.ends_at', 'must be in the future', input.ends_at);
    // Any member may mute a workspace for themself; the name is kept for display.
    const workspace = input.workspace_id ? await this.access.requireWorkspace(principal, input.workspace_id, 'viewer', 'body') : null;
    return this.dataSource.transaction(async (db) => {
      const repository = db.getRepository(MuteEntity);
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`mutes:${userId}`]);
      const active = await repository.countBy({ userId, endsAt: MoreThan(new Date()) });
      if (active >= MAX_ACTIVE_MUTES) {
        throw problems.conflict('too_many_mutes', `At most ${MAX_ACTIVE_MUTES} mutes may be active; delete one first.`);
      }
      const mute = await repository.save({
        id: uuidv7(),
        userId,
        workspaceId: workspace?.workspace_id ?? null,
        workspaceName: workspace?.workspace_name ?? '',
        startsAt,
        endsAt,
        createdAt: new Date(),
      });
      return toNotificationMute(mute);
    });
  }

  /** The caller's mutes that have not ended, soonest first (ended ones are history). */
  async list(userId: string): Promise<NotificationMuteList> {
    const mutes = await this.dataSource.getRepository(MuteEntity).find({
      where: { userId, endsAt: MoreThan(new Date()) },
      order: { startsAt: 'ASC', id: 'ASC' },
    });
    return { mutes: mutes.map(toNotificationMute) };
  }

  /** One of the caller's mutes, ended or not; another user's is answered exactly like a missing one. */
  async get(userId: string, muteId: string): Promise<NotificationMute> {
    const mute = isUuid(muteId) ? await this.dataSource.getRepository(MuteEntity).findOneBy({ id: muteId, userId }) : null;
    if (!mute) throw problems.notFound('No such mute.');
    return toNotificationMute(mute);
  }

  /** Another user's mute is answered exactly like a missing one. */
  async delete(userId: string, muteId: string): Promise<void> {
    const result = isUuid(muteId) ? await this.dataSource.getRepository(MuteEntity).delete({ id: muteId, userId }) : { affected: 0 };
    if (!result.affected) throw problems.notFound('No such mute.');
  }
}
