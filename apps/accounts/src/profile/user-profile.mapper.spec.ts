import { describe, expect, it } from '@jest/globals';
import { userFromRow, UserRow } from '../users/user.entity.js';
import { toUserProfile } from './user-profile.mapper.js';

const row: UserRow = {
  id: '0190a000-0000-7000-8000-0000000000aa',
  email: 'Ada@Example.com',
  email_verified: true,
  password_hash: '$argon2id$v=19$m=19456,t=2,p=1$salt$hash',
  display_name: 'Ada',
  username: 'ada',
  avatar_url: 'https://cdn.example.com/ada.png',
  composer_experience: 'specialized',
  is_admin: true,
  public_profile_enabled: true,
  public_profile_visible_fields: ['display_name'],
  created_at: new Date('2030-01-01T00:00:00.000Z'),
  updated_at: new Date('2030-01-02T00:00:00.000Z'),
};

describe('toUserProfile', () => {
  it('publishes a user row without its password hash', () => {
    const profile = toUserProfile(userFromRow(row));
    expect(profile).toEqual({
      id: row.id,
      email: 'Ada@Example.com',
      email_verified: true,
      display_name: 'Ada',
      username: 'ada',
      avatar_url: 'https://cdn.example.com/ada.png',
      composer_experience: 'specialized',
      created_at: '2030-01-01T00:00:00.000Z',
      has_password: true,
      password_usable: true,
      is_admin: true,
      is_managed: false,
      managed_organization_name: '',
      legal_acceptance_required: false,
      legal_accepted_at: null,
      privacy_version: '',
      terms_version: '',
      public_profile_enabled: true,
      public_profile_visible_fields: ['display_name'],
    });
    expect(JSON.stringify(profile)).not.toContain('argon2');
  });

  it('says when there is no password to change, and answers a missing username as ""', () => {
    const profile = toUserProfile(userFromRow({ ...row, password_hash: null, username: null, is_admin: false }));
    expect(profile).toMatchObject({ has_password: false, password_usable: false, username: '', is_admin: false });
  });
});

describe('userFromRow', () => {
  it('maps every column of the hand-written hot read onto the entity', () => {
    expect({ ...userFromRow(row) }).toEqual({
      id: row.id,
      email: row.email,
      emailVerified: true,
      passwordHash: row.password_hash,
      displayName: 'Ada',
      username: 'ada',
      avatarUrl: row.avatar_url,
      composerExperience: 'specialized',
      isAdmin: true,
      publicProfileEnabled: true,
      publicProfileVisibleFields: ['display_name'],
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    });
  });
});
