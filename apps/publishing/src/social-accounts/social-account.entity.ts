import type { SocialAccountStatus } from '@social/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'social_accounts' })
export class SocialAccountEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @Column('text') platform: string;
  /** The network's own id of the account (stable across renames). */
  @Column('text', { name: 'external_id' }) externalId: string;
  @Column('text') username: string;
  @Column('text', { name: 'display_name' }) displayName: string;
  @Column('text', { name: 'avatar_url' }) avatarUrl: string;
  /** Origin of the account's server for networks with instances (mastodon), else "". */
  @Column('text', { name: 'instance_url' }) instanceUrl: string;
  @Column('text') status: SocialAccountStatus;
  /** Sealed grant (SecretBox, context `social_accounts:<id>`); never leaves the service. */
  @Column('text') credentials: string;
  @Column('uuid', { name: 'connected_by' }) connectedBy: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
