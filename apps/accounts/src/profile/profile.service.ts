import { Injectable } from '@nestjs/common';
import { ContactList, SecurityStatus, UpdateProfileRequest, UserContact, UserProfile } from '@social/contracts';
import { isUuid, preparedQuery, problems } from '@social/platform';
import { DataSource } from 'typeorm';
import { PasskeysService } from '../passkeys/passkeys.service.js';
import { SELECT_USER_BY_ID, UserEntity, userFromRow, UserRow } from '../users/user.entity.js';
import { accountGone } from '../users/users.js';
import { toUserProfile } from './user-profile.mapper.js';

@Injectable()
export class ProfileService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly passkeys: PasskeysService,
  ) {}

  /** The hottest read of the platform (every client asks it first), hence a prepared statement. */
  async get(userId: string): Promise<UserProfile> {
    const [row] = await preparedQuery<UserRow>(this.dataSource, 'accounts.user-by-id', SELECT_USER_BY_ID, [userId]);
    if (!row) throw accountGone();
    return toUserProfile(userFromRow(row));
  }

  async update(userId: string, changes: UpdateProfileRequest): Promise<UserProfile> {
    return this.dataSource.transaction(async (db) => {
      const users = db.getRepository(UserEntity);
      const user = await users.findOne({ where: { id: userId }, lock: { mode: 'pessimistic_write' } });
      if (!user) throw accountGone();
      if (changes.username !== undefined && changes.username.toLowerCase() !== user.username?.toLowerCase()) {
        const taken = await users
          .createQueryBuilder('u')
          .where('lower(u.username) = :u AND u.id <> :id', { u: changes.username.toLowerCase(), id: userId })
          .getExists();
        if (taken) throw problems.conflict('username_taken', 'This username is taken.');
        user.username = changes.username;
      }
      if (changes.display_name !== undefined) user.displayName = changes.display_name.trim() || user.displayName;
      if (changes.avatar_url !== undefined) user.avatarUrl = changes.avatar_url;
      if (changes.composer_experience !== undefined) user.composerExperience = changes.composer_experience;
      if (changes.public_profile_enabled !== undefined) user.publicProfileEnabled = changes.public_profile_enabled;
      if (changes.public_profile_visible_fields !== undefined) {
        user.publicProfileVisibleFields = changes.public_profile_visible_fields;
      }
      return toUserProfile(await users.save(user));
    });
  }

  security(userId: string): Promise<SecurityStatus> {
    return this.passkeys.securityStatus(userId);
  }

  async contact(userId: string): Promise<UserContact> {
    const user = await this.find(userId);
    return { userId: user.id, email: user.email, emailVerified: user.emailVerified };
  }

  async contacts(userIds: string[]): Promise<ContactList> {
    const ids = [...new Set(userIds.filter(isUuid).map((id) => id.toLowerCase()))].slice(0, 1000);
    const rows = (await this.dataSource.query('SELECT id, email, email_verified FROM users WHERE id = ANY($1::uuid[])', [ids])) as Array<{
      id: string;
      email: string;
      email_verified: boolean;
    }>;
    const found = new Map(rows.map((row) => [row.id, row]));
    return {
      contacts: ids.map((id) => ({
        user_id: id,
        email: found.get(id)?.email ?? '',
        email_verified: found.get(id)?.email_verified ?? false,
      })),
    };
  }

  private async find(userId: string): Promise<UserEntity> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: userId });
    // A valid token for a user that is gone: the credentials no longer stand.
    if (!user) throw accountGone();
    return user;
  }
}
