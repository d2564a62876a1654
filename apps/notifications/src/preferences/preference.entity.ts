import type { TopicPreference } from '@social/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A user's saved choices; a user without a row has every default. */
@Entity({ name: 'preferences' })
export class PreferenceEntity {
  @PrimaryColumn('uuid', { name: 'user_id' }) userId: string;
  @Column('text', { name: 'digest_time' }) digestTime: string;
  @Column('text', { name: 'digest_timezone' }) digestTimezone: string;
  /** Only the topics the user sent in the last replace. */
  @Column('jsonb') topics: Record<string, TopicPreference>;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
