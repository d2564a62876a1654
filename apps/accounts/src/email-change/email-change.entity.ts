import { Column, Entity, PrimaryColumn } from 'typeorm';

export type EmailChangeStatus = 'pending' | 'confirmed' | 'cancelled' | 'superseded' | 'locked';

/** A requested change of sign-in address; the 6-digit code is kept only as an HMAC. */
@Entity({ name: 'email_changes' })
export class EmailChangeEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @Column('text', { name: 'new_email' }) newEmail: string;
  @Column('text', { name: 'code_hash' }) codeHash: string;
  @Column('int', { name: 'failed_attempts' }) failedAttempts: number;
  @Column('text') status: EmailChangeStatus;
  @Column('timestamptz', { name: 'sent_at' }) sentAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'resolved_at', nullable: true }) resolvedAt: Date | null;
}
