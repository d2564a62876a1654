import { DELIVERY_STATES, RECOVERY_ACTIONS, type PublicationStatus } from '@social/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JsonMap, StoredMedia } from './publication.entity.js';

/** Where a rendition's delivery stands (docs/decisions.md "Delivery", the CHECK of `delivery_state`). */
export type DeliveryState = (typeof DELIVERY_STATES)[number];
/** What a stuck delivery waits for (the CHECK of `delivery_recovery_action`). */
export type RecoveryAction = (typeof RECOVERY_ACTIONS)[number];

/** Where a delivery target landed, or why it failed: shared by renditions and their segments. */
export abstract class DeliveryOutcome {
  @Column('text', { name: 'external_id' }) externalId: string;
  @Column('text', { name: 'external_url' }) externalUrl: string;
  @Column('text', { name: 'error_action' }) errorAction: string;
  @Column('text', { name: 'error_code' }) errorCode: string;
  @Column('text', { name: 'error_kind' }) errorKind: string;
  @Column('text', { name: 'error_message' }) errorMessage: string;
  @Column('integer', { name: 'error_http_status' }) errorHttpStatus: number;
  @Column('boolean', { name: 'error_retryable' }) errorRetryable: boolean;
  @Column('timestamptz', { name: 'error_retry_at', nullable: true }) errorRetryAt: Date | null;
}

/** One per target account and platform, created by scheduling; its Delivery lives in the `delivery_*` columns. */
@Entity({ name: 'renditions' })
export class RenditionEntity extends DeliveryOutcome {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'publication_id' }) publicationId: string;
  @Column('uuid', { name: 'social_account_id' }) socialAccountId: string;
  @Column('text') platform: string;
  @Column('text', { name: 'target_key' }) targetKey: string;
  @Column('text') profile: string;
  @Column('text', { name: 'output_profile' }) outputProfile: string;
  @Column('text') status: PublicationStatus;
  @Column('text') title: string;
  @Column('text') body: string;
  @Column('text') description: string;
  @Column('boolean', { name: 'format_locked' }) formatLocked: boolean;
  @Column('text', { name: 'schedule_override' }) scheduleOverride: string;
  @Column('jsonb') media: StoredMedia[];
  @Column('jsonb') settings: JsonMap;
  @Column('text', { name: 'delivery_state' }) deliveryState: DeliveryState;
  @Column('text', { name: 'delivery_recovery_action' }) deliveryRecoveryAction: RecoveryAction;
  @Column('text', { name: 'delivery_target_key' }) deliveryTargetKey: string;
  @Column('uuid', { name: 'delivery_current_attempt_id', nullable: true }) deliveryCurrentAttemptId: string | null;
  @Column('integer', { name: 'delivery_current_attempt_number' }) deliveryCurrentAttemptNumber: number;
  @Column('timestamptz', { name: 'delivery_current_attempt_created_at', nullable: true }) deliveryCurrentAttemptCreatedAt: Date | null;
  @Column('text', { name: 'delivery_terminal_reason' }) deliveryTerminalReason: string;
  @Column('timestamptz', { name: 'delivery_last_reconciled_at', nullable: true }) deliveryLastReconciledAt: Date | null;
  @Column('timestamptz', { name: 'delivery_next_reconciliation_at', nullable: true }) deliveryNextReconciliationAt: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}

@Entity({ name: 'rendition_segments' })
export class RenditionSegmentEntity extends DeliveryOutcome {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'rendition_id' }) renditionId: string;
  @Column('uuid', { name: 'publication_segment_id', nullable: true }) publicationSegmentId: string | null;
  @Column('integer') position: number;
  @Column('text') status: PublicationStatus;
  @Column('text') title: string;
  @Column('text') body: string;
  @Column('text') description: string;
  @Column('text') url: string;
  @Column('text', { name: 'title_override' }) titleOverride: string;
  @Column('text', { name: 'body_override' }) bodyOverride: string;
  @Column('text', { name: 'description_override' }) descriptionOverride: string;
  @Column('text', { name: 'url_override' }) urlOverride: string;
  @Column('boolean', { name: 'media_inherited' }) mediaInherited: boolean;
  @Column('jsonb') media: StoredMedia[];
  @Column('jsonb') settings: JsonMap;
}
