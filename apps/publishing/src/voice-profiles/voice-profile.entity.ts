import type { VoiceDefinition } from '@social/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'voice_profiles' })
export class VoiceProfileEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @Column('text') name: string;
  /** Stored complete (every member present), as answered. */
  @Column('jsonb') definition: VoiceDefinition;
  @Column('boolean', { name: 'is_default' }) isDefault: boolean;
  /** 1 at creation, +1 per E14; the guard of E14's `expected_revision`. */
  @Column('integer') revision: number;
  @Column('integer', { name: 'schema_version' }) schemaVersion: number;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
