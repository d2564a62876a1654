import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Principal, ReauthGrant } from '@social/contracts';
import { changedCount, problems, RateLimiter } from '@social/platform';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, EntityManager } from 'typeorm';
import { hashOpaqueToken, newOpaqueToken } from '../auth/opaque-tokens.js';
import { verifyPassword } from '../auth/passwords.js';
import { UserEntity } from '../users/user.entity.js';
import { accountGone } from '../users/users.js';
import { ReauthGrantEntity } from './reauth-grant.entity.js';

const GRANT_TTL_MS = 5 * 60_000;
/** Contract §1: 10 failed re-authentications per user per 15 minutes, then 429 even for the right password. */
const FAILURES = { limit: 10, windowSeconds: 15 * 60 };

@Injectable()
export class ReauthService implements OnModuleInit, OnApplicationShutdown {
  private readonly limiter: RateLimiter;
  private sweepTimer?: NodeJS.Timeout;

  constructor(private readonly dataSource: DataSource) {
    this.limiter = new RateLimiter(dataSource);
  }

  /** Expired grants and passkey challenges are dead weight; any replica may sweep them. */
  onModuleInit() {
    this.sweepTimer = setInterval(() => void this.sweep().catch(() => undefined), 3_600_000).unref();
  }

  onApplicationShutdown() {
    clearInterval(this.sweepTimer);
  }

  private async sweep() {
    await this.dataSource.query(`DELETE FROM reauth_grants WHERE expires_at < now() - interval '1 day'`);
    await this.dataSource.query(`DELETE FROM passkey_challenges WHERE expires_at < now() - interval '1 day'`);
  }

  async reauthenticate(principal: Principal, password: string): Promise<ReauthGrant> {
    // Every attempt is counted before the (slow) password check, so attempts
    // sent in parallel cannot all pass the limit; a right password takes its
    // count back, leaving only failures in the window.
    const failures = { key: `reauth:failures:${principal.userId}`, ...FAILURES };
    await this.limiter.hit(failures);
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: principal.userId });
    if (!user) throw accountGone();
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw problems.unauthorized('invalid_credentials', 'The password is not correct.');
    }
    await this.limiter.release(failures);
    const grant = newOpaqueToken('rg');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + GRANT_TTL_MS);
    await this.dataSource.getRepository(ReauthGrantEntity).insert({
      id: uuidv7(),
      grantHash: grant.hash,
      userId: principal.userId,
      sessionId: principal.sessionId,
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
    return { reauth_grant: grant.token, expires_at: expiresAt.toISOString() };
  }

  /**
   * Uses up a grant inside the caller's transaction, so a refused operation
   * (rolled back) leaves the grant usable. Any grant that is unknown, expired,
   * used, or another user's or session's is the same 401.
   */
  async consume(db: EntityManager, principal: Principal, grant: string): Promise<void> {
    const used = await changedCount(
      db,
      `UPDATE reauth_grants SET used_at = now()
       WHERE grant_hash = $1 AND user_id = $2 AND session_id = $3 AND used_at IS NULL AND expires_at > now()
       RETURNING id`,
      [hashOpaqueToken(grant), principal.userId, principal.sessionId],
    );
    if (used === 0) {
      throw problems.unauthorized('reauth_required', 'The reauth_grant is unknown, expired or used; re-authenticate (POST /auth/reauth).');
    }
  }
}
