import type { PublicationStatus } from '@social/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A jsonb object of any JSON (`any`, which TypeORM's partial-entity types accept). */
export type JsonMap = Record<string, any>;
/** A PublicationMedia item as stored (jsonb, as given until the media service owns media): any member may be missing. */
export type StoredMedia = JsonMap;

@Entity({ name: 'publications' })
export class PublicationEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @Column('text') status: PublicationStatus;
  /** Optimistic concurrency: every change adds 1, and a change names the revision it is based on. */
  @Column('integer') revision: number;
  @Column('text', { name: 'content_profile' }) contentProfile: string;
  @Column('text') title: string;
  @Column('text', { name: 'source_text' }) sourceText: string;
  @Column('text', { name: 'source_url' }) sourceUrl: string;
  @Column('text') audience: string;
  @Column('text') goal: string;
  @Column('text') intent: string;
  @Column('text', { name: 'creation_preset' }) creationPreset: string;
  @Column('uuid', { name: 'social_set_id', nullable: true }) socialSetId: string | null;
  @Column('jsonb') metadata: JsonMap;
  @Column('jsonb') media: StoredMedia[];
  @Column('boolean', { name: 'random_delay_inherited' }) randomDelayInherited: boolean;
  @Column('integer', { name: 'random_delay_minutes' }) randomDelayMinutes: number;
  /** RepostOverride as stored; read through `toRepostOverride`, which fills what is missing. */
  @Column('jsonb', { name: 'repost_override' }) repostOverride: JsonMap;
  @Column('timestamptz', { name: 'scheduled_at', nullable: true }) scheduledAt: Date | null;
  @Column('timestamptz', { name: 'actual_run_at', nullable: true }) actualRunAt: Date | null;
  @Column('timestamptz', { name: 'failure_dismissed_at', nullable: true }) failureDismissedAt: Date | null;
  @Column('uuid', { name: 'created_by' }) createdBy: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}

@Entity({ name: 'publication_segments' })
export class PublicationSegmentEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'publication_id' }) publicationId: string;
  @Column('integer') position: number;
  @Column('text') title: string;
  @Column('text') body: string;
  @Column('text') description: string;
  @Column('text') url: string;
  @Column('jsonb') media: StoredMedia[];
  @Column('jsonb') settings: JsonMap;
}
