import { Injectable } from '@nestjs/common';
import { ChangePasswordRequest, Principal } from '@social/contracts';
import { changedRows, Problem, problems } from '@social/platform';
import { DataSource } from 'typeorm';
import { ApiTokenEntity } from '../api-tokens/api-token.entity.js';
import { ApiTokensService } from '../api-tokens/api-tokens.service.js';
import { enqueueSecurityAction } from '../users/security-events.js';
import { UserEntity } from '../users/user.entity.js';
import { AuthService } from './auth.service.js';
import { hashPassword } from './passwords.js';

/**
 * `POST /auth/password` (docs/decisions.md): the current password is checked like a
 * sign-in (failures counted per email and client address), then, in one
 * transaction, the new hash is stored, every other session and every API token
 * of the user is revoked and a `security_action` mail is queued; gateways hear
 * the revocations after the commit.
 */
@Injectable()
export class PasswordService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly auth: AuthService,
    private readonly apiTokens: ApiTokensService,
  ) {}

  async change(principal: Principal, input: ChangePasswordRequest, clientIp: string): Promise<void> {
    // "This session stays": only a signed-in session can keep itself while everything else is revoked.
    if (principal.tokenKind !== 'session')
      throw problems.forbidden('session_required', 'Changing the password needs a signed-in session, not an API token.');
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: principal.userId });
    if (!user) throw problems.unauthorized('invalid_token', 'The bearer token is malformed, expired or not ours.');
    await this.auth.checkPassword(
      user.email,
      clientIp,
      user.passwordHash,
      input.current_password,
      () =>
        new Problem(422, 'invalid_password', 'The current password is not correct.', {
          errors: [{ location: 'body.current_password', message: 'is not the current password' }],
        }),
    );
    const passwordHash = await hashPassword(input.new_password);
    const outcome = await this.dataSource.transaction(async (db) => {
      await db.getRepository(UserEntity).update({ id: user.id }, { passwordHash });
      const sessions = await this.auth.revokeOtherSessions(db, user.id, principal.sessionId, 'password_changed');
      const revokedAt = new Date();
      const tokens = await changedRows<Pick<ApiTokenEntity, 'id'>>(
        db,
        `UPDATE api_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id`,
        [user.id, revokedAt],
      );
      await enqueueSecurityAction(db, user.id, 'password_changed');
      return { sessions, tokenIds: tokens.map((token) => token.id), revokedAt };
    });
    outcome.sessions.forEach((session) => this.auth.announceRevocation(session));
    this.apiTokens.announceRevoked(outcome.tokenIds, outcome.revokedAt);
  }
}
