import { Inject, Injectable } from '@nestjs/common';
import { AuthTokens, FinishPasskeySignInRequest, PasskeySignInOptions } from '@social/contracts';
import { isUuid, problems, SERVICE_CONFIG } from '@social/platform';
import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { createHash, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { DataSource } from 'typeorm';
import { AuthService } from '../auth/auth.service.js';
import type { AccountsConfig } from '../config.js';
import { UserEntity } from '../users/user.entity.js';
import { PasskeyEntity } from './passkey.entity.js';
import { hasCredentialMembers, relyingPartyFrom, RelyingParty, requireRelyingParty } from './relying-party.js';

const CHALLENGE_TTL_MS = 10 * 60_000;
const sha256 = (value: string) => createHash('sha256').update(value).digest();

interface SignInChallenge {
  challenge_hash: string;
  expires_at: Date;
  used_at: Date | null;
}

/**
 * Signing in with a passkey (a discoverable credential: the browser offers the person's passkeys for this relying
 * party, no email first). The challenge is single use whatever the outcome; an assertion that names no passkey of
 * ours or fails verification is the same 401 as a wrong password. The signature counter moves forward on success.
 */
@Injectable()
export class PasskeySignInService {
  private readonly relyingParty?: RelyingParty;

  constructor(
    private readonly dataSource: DataSource,
    private readonly auth: AuthService,
    @Inject(SERVICE_CONFIG) config: AccountsConfig,
  ) {
    this.relyingParty = relyingPartyFrom(config);
  }

  async begin(): Promise<PasskeySignInOptions> {
    const rp = requireRelyingParty(this.relyingParty);
    const options = await generateAuthenticationOptions({ rpID: rp.id, timeout: CHALLENGE_TTL_MS, userVerification: 'preferred' });
    const id = uuidv7();
    const now = new Date();
    // Anyone may open a ceremony: expired ones are swept as new ones come, so the table stays small.
    await this.dataSource.query(`DELETE FROM passkey_sign_in_challenges WHERE expires_at < now() - interval '1 hour'`);
    await this.dataSource.query(
      `INSERT INTO passkey_sign_in_challenges (id, challenge_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
      [id, sha256(options.challenge).toString('hex'), now, new Date(now.getTime() + CHALLENGE_TTL_MS)],
    );
    return { challenge_id: id, options: options as unknown as Record<string, unknown> };
  }

  async finish(input: FinishPasskeySignInRequest): Promise<AuthTokens> {
    const rp = requireRelyingParty(this.relyingParty);
    const refused = () => problems.unauthorized('invalid_credentials', 'This passkey is not registered here, or it could not be verified.');
    const user = await this.dataSource.transaction(async (db) => {
      const [challenge] = isUuid(input.challenge_id)
        ? ((await db.query(`SELECT challenge_hash, expires_at, used_at FROM passkey_sign_in_challenges WHERE id = $1 FOR UPDATE`, [
            input.challenge_id,
          ])) as SignInChallenge[])
        : [];
      if (!challenge || challenge.used_at || challenge.expires_at <= new Date()) {
        throw problems.unauthorized(
          'passkey_challenge_invalid',
          'The challenge_id is unknown, expired or used; start again with /auth/passkeys/sign-in/begin.',
        );
      }
      await db.query(`UPDATE passkey_sign_in_challenges SET used_at = now() WHERE id = $1`, [input.challenge_id]);
      if (!looksLikeAssertion(input.credential)) {
        throw problems.invalid('body.credential', 'must be a WebAuthn authentication response (AuthenticationResponseJSON)');
      }
      const passkey = await db.getRepository(PasskeyEntity).findOne({
        where: { credentialId: input.credential.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!passkey) return { error: refused() };
      const expected = Buffer.from(challenge.challenge_hash, 'hex');
      try {
        const verification = await verifyAuthenticationResponse({
          response: input.credential,
          expectedChallenge: (value) => timingSafeEqual(sha256(value), expected),
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: {
            id: passkey.credentialId,
            publicKey: new Uint8Array(passkey.publicKey),
            counter: passkey.counter,
            transports: passkey.transports as Parameters<typeof verifyAuthenticationResponse>[0]['credential']['transports'],
          },
          requireUserVerification: false,
        });
        if (!verification.verified) return { error: refused() };
        await db
          .getRepository(PasskeyEntity)
          .update({ id: passkey.id }, { counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() });
      } catch {
        return { error: refused() };
      }
      return { user: await db.getRepository(UserEntity).findOneByOrFail({ id: passkey.userId }) };
    });
    // The challenge stays used even when the assertion was refused: it is committed before the refusal is thrown.
    if (user.error) throw user.error;
    return this.auth.openSession(user.user!);
  }
}

function looksLikeAssertion(value: unknown): value is AuthenticationResponseJSON {
  return hasCredentialMembers(value, ['clientDataJSON', 'authenticatorData', 'signature']);
}
