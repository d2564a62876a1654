import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A signed-in device: refresh tokens rotate within it; revoking it ends them all. */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @Column('text', { name: 'revoke_reason', nullable: true }) revokeReason: string | null;
}

/** One refresh token of a session, kept only as a SHA-256 hash. */
@Entity({ name: 'refresh_tokens' })
export class RefreshTokenEntity {
  @PrimaryColumn('text', { name: 'token_hash' }) tokenHash: string;
  @Column('uuid', { name: 'session_id' }) sessionId: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt: Date | null;
}
