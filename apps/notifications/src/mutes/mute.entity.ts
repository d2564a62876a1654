import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'mutes' })
export class MuteEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'user_id' }) userId: string;
  /** Null for an account-wide mute. */
  @Column('uuid', { name: 'workspace_id', nullable: true }) workspaceId: string | null;
  @Column('text', { name: 'workspace_name', default: '' }) workspaceName: string;
  @Column('timestamptz', { name: 'starts_at' }) startsAt: Date;
  @Column('timestamptz', { name: 'ends_at' }) endsAt: Date;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
