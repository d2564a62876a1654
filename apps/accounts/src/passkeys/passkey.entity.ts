import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A registered WebAuthn credential (public key only). */
@Entity({ name: 'passkeys' })
export class PasskeyEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'user_id' }) userId: string;
  /** base64url, as the authenticator names it. */
  @Column('text', { name: 'credential_id' }) credentialId: string;
  @Column('bytea', { name: 'public_key' }) publicKey: Buffer;
  @Column('bigint', { transformer: { to: (v: number) => v, from: (v: string) => Number(v) } }) counter: number;
  @Column('text', { array: true, default: () => "'{}'" }) transports: string[];
  @Column('text') name: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt: Date | null;
}

/** A registration ceremony in progress; only the SHA-256 of its WebAuthn challenge is kept. */
@Entity({ name: 'passkey_challenges' })
export class PasskeyChallengeEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @Column('uuid', { name: 'session_id' }) sessionId: string;
  @Column('text', { name: 'challenge_hash' }) challengeHash: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt: Date | null;
}
