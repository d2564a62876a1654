import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A long-lived bearer secret for scripts and integrations; only its SHA-256 is kept. */
@Entity({ name: 'api_tokens' })
export class ApiTokenEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @Column('text') name: string;
  @Column('text', { name: 'token_hash' }) tokenHash: string;
  /** Set for a workspace-bound token. */
  @Column('uuid', { name: 'workspace_id', nullable: true }) workspaceId: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt: Date | null;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
}
