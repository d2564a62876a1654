import { Inject, Injectable } from '@nestjs/common';
import { FinishPasskeyRequest, PasskeyRegistrationOptions, Principal, SecurityStatus } from '@social/contracts';
import { changedRows, isUniqueViolation, isUuid, problems, SERVICE_CONFIG } from '@social/platform';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { createHash, timingSafeEqual } from 'node:crypto';
import { parse as parseUuid, v7 as uuidv7 } from 'uuid';
import { DataSource } from 'typeorm';
import type { AccountsConfig } from '../config.js';
import { toUserProfile } from '../profile/user-profile.mapper.js';
import { ReauthService } from '../reauth/reauth.service.js';
import { UserEntity } from '../users/user.entity.js';
import { PasskeyChallengeEntity, PasskeyEntity } from './passkey.entity.js';
import { hasCredentialMembers, relyingPartyFrom, RelyingParty, requireRelyingParty } from './relying-party.js';
import { accountGone } from '../users/users.js';
import { enqueueSecurityAction } from '../users/security-events.js';

const CHALLENGE_TTL_MS = 10 * 60_000;
const RP_NAME = 'Social Publishing Platform';

const sha256 = (value: string) => createHash('sha256').update(value).digest();

@Injectable()
export class PasskeysService {
  private readonly relyingParty?: RelyingParty;

  constructor(
    private readonly dataSource: DataSource,
    private readonly reauth: ReauthService,
    @Inject(SERVICE_CONFIG) config: AccountsConfig,
  ) {
    this.relyingParty = relyingPartyFrom(config);
  }

  /** Consumes a reauth grant and opens a 10-minute registration ceremony for this user and session. */
  async begin(principal: Principal, reauthGrant: string): Promise<PasskeyRegistrationOptions> {
    const rp = requireRelyingParty(this.relyingParty);
    return this.dataSource.transaction(async (db) => {
      await this.reauth.consume(db, principal, reauthGrant);
      const user = await db.getRepository(UserEntity).findOneBy({ id: principal.userId });
      if (!user) throw accountGone();
      const existing = await db.getRepository(PasskeyEntity).findBy({ userId: user.id });
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rp.id,
        userID: Uint8Array.from(parseUuid(user.id)),
        userName: user.email,
        userDisplayName: user.displayName,
        timeout: CHALLENGE_TTL_MS,
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      });
      const now = new Date();
      const challenge = await db.getRepository(PasskeyChallengeEntity).save({
        id: uuidv7(),
        userId: user.id,
        sessionId: principal.sessionId,
        challengeHash: sha256(options.challenge).toString('hex'),
        createdAt: now,
        expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
        usedAt: null,
      });
      return { challenge_id: challenge.id, options: options as unknown as Record<string, unknown> };
    });
  }

  /**
   * Verifies the attestation against the stored challenge and keeps the
   * credential. Only a successful registration uses the challenge up: a
   * credential that fails verification (422) may be retried until expiry.
   */
  async finish(principal: Principal, input: FinishPasskeyRequest): Promise<SecurityStatus> {
    const rp = requireRelyingParty(this.relyingParty);
    await this.dataSource.transaction(async (db) => {
      const challenge = isUuid(input.challenge_id)
        ? await db.getRepository(PasskeyChallengeEntity).findOne({
            where: { id: input.challenge_id },
            lock: { mode: 'pessimistic_write' },
          })
        : null;
      if (
        !challenge ||
        challenge.userId !== principal.userId ||
        challenge.sessionId !== principal.sessionId ||
        challenge.usedAt ||
        challenge.expiresAt <= new Date()
      ) {
        throw problems.unauthorized(
          'passkey_challenge_invalid',
          'The challenge_id is unknown, expired or used; start again with /auth/security/passkeys/begin.',
        );
      }
      if (!looksLikeRegistration(input.credential)) {
        throw problems.invalid('body.credential', 'must be a WebAuthn registration response (RegistrationResponseJSON)');
      }
      const expected = Buffer.from(challenge.challengeHash, 'hex');
      let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verification = await verifyRegistrationResponse({
          response: input.credential,
          expectedChallenge: (value) => timingSafeEqual(sha256(value), expected),
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: false,
        });
      } catch (error) {
        throw problems.invalid('body.credential', `failed verification: ${verificationReason(error)}`);
      }
      if (!verification.verified) throw problems.invalid('body.credential', 'failed verification');
      const { credential } = verification.registrationInfo;
      const passkeys = db.getRepository(PasskeyEntity);
      if (await passkeys.existsBy({ credentialId: credential.id })) {
        throw problems.conflict('passkey_exists', 'This passkey is already registered.');
      }
      // The same credential registered by a racing request is the same 409.
      await passkeys
        .insert({
          id: uuidv7(),
          userId: principal.userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports ?? [],
          name: input.name.trim() || 'Passkey',
          createdAt: new Date(),
          lastUsedAt: null,
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw problems.conflict('passkey_exists', 'This passkey is already registered.');
          throw error;
        });
      await db.getRepository(PasskeyChallengeEntity).update({ id: challenge.id }, { usedAt: new Date() });
      await enqueueSecurityAction(db, principal.userId, 'passkey_added', input.name.trim() || 'Passkey');
    });
    return this.securityStatus(principal.userId);
  }

  /** Another user's passkey is answered exactly like a missing one. */
  async delete(userId: string, passkeyId: string): Promise<void> {
    if (!isUuid(passkeyId)) throw problems.notFound('No such passkey.');
    await this.dataSource.transaction(async (db) => {
      const rows = await changedRows<Pick<PasskeyEntity, 'name'>>(
        db,
        'DELETE FROM passkeys WHERE id = $1 AND user_id = $2 RETURNING name',
        [passkeyId, userId],
      );
      if (!rows.length) throw problems.notFound('No such passkey.');
      await enqueueSecurityAction(db, userId, 'passkey_removed', rows[0].name);
    });
  }

  /** What the user can really sign in with, read live. */
  async securityStatus(userId: string): Promise<SecurityStatus> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: userId });
    // A valid token for a user that is gone: the credentials no longer stand.
    if (!user) throw accountGone();
    const passkeys = await this.dataSource.getRepository(PasskeyEntity).find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
    const methods: string[] = [];
    if (user.passwordHash) methods.push('password');
    if (passkeys.length > 0) methods.push('passkey');
    return {
      methods,
      passkeys: passkeys.map((p) => ({
        id: p.id,
        name: p.name,
        created_at: p.createdAt.toISOString(),
        last_used_at: p.lastUsedAt?.toISOString() ?? null,
      })),
      totp_enabled: false,
      user: toUserProfile(user),
    };
  }
}

function looksLikeRegistration(value: unknown): value is RegistrationResponseJSON {
  return hasCredentialMembers(value, ['clientDataJSON', 'attestationObject']);
}

/** The library's reason (about the client's own data), kept short. */
function verificationReason(error: unknown): string {
  const message = error instanceof Error ? error.message : 'the credential is malformed';
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}
