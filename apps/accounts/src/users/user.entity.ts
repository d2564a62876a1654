import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn('uuid') id: string;
  /** As typed at registration; uniqueness is on lower(email). */
  @Column('text') email: string;
  @Column('boolean', { name: 'email_verified', default: false }) emailVerified: boolean;
  @Column('text', { name: 'password_hash', nullable: true }) passwordHash: string | null;
  @Column('text', { name: 'display_name' }) displayName: string;
  @Column('text', { nullable: true }) username: string | null;
  @Column('text', { name: 'avatar_url', default: '' }) avatarUrl: string;
  @Column('text', { name: 'composer_experience', default: 'specialized' }) composerExperience: string;
  @Column('boolean', { name: 'is_admin', default: false }) isAdmin: boolean;
  @Column('boolean', { name: 'public_profile_enabled', default: false }) publicProfileEnabled: boolean;
  @Column('text', { name: 'public_profile_visible_fields', array: true, default: () => "'{}'" })
  publicProfileVisibleFields: string[];
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** The users row as PostgreSQL returns it, for hand-written hot reads. */
export interface UserRow {
  id: string;
  email: string;
  email_verified: boolean;
  password_hash: string | null;
  display_name: string;
  username: string | null;
  avatar_url: string;
  composer_experience: string;
  is_admin: boolean;
  public_profile_enabled: boolean;
  public_profile_visible_fields: string[];
  created_at: Date;
  updated_at: Date;
}

export const SELECT_USER_BY_ID = `SELECT id, email, email_verified, password_hash, display_name, username, avatar_url,
  composer_experience, is_admin, public_profile_enabled, public_profile_visible_fields, created_at, updated_at
  FROM users WHERE id = $1`;

export function userFromRow(row: UserRow): UserEntity {
  return Object.assign(new UserEntity(), {
    id: row.id,
    email: row.email,
    emailVerified: row.email_verified,
    passwordHash: row.password_hash,
    displayName: row.display_name,
    username: row.username,
    avatarUrl: row.avatar_url,
    composerExperience: row.composer_experience,
    isAdmin: row.is_admin,
    publicProfileEnabled: row.public_profile_enabled,
    publicProfileVisibleFields: row.public_profile_visible_fields,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}
