import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'social_sets' })
export class SocialSetEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @Column('text') name: string;
  @Column('boolean', { name: 'is_default' }) isDefault: boolean;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
