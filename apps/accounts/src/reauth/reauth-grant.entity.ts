import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Proof of a recent password check, single use, bound to a user and session; only its SHA-256 is kept. */
@Entity({ name: 'reauth_grants' })
export class ReauthGrantEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text', { name: 'grant_hash' }) grantHash: string;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @Column('uuid', { name: 'session_id' }) sessionId: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt: Date | null;
}
