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
