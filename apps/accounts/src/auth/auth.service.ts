import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { AuthTokens, LoginRequest, RegisterRequest, SESSION_REVOKED_SUBJECT, SessionRevokedEvent } from '@social/contracts';
import { changedRows, InstanceSettings, NATS_CONNECTION, problems, RateLimiter, SERVICE_CONFIG } from '@social/platform';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, EntityManager, IsNull, MoreThan } from 'typeorm';
import type { AccountsConfig } from '../config.js';
import { toUserProfile } from '../profile/user-profile.mapper.js';
import { UserEntity } from '../users/user.entity.js';
import { AccessTokenSigner } from './access-tokens.js';
import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { RefreshTokenEntity, SessionEntity } from './session.entity.js';
import { emailTaken, normalizeEmail } from '../users/users.js';

const MINUTE = 60;

/**
 * Contract §1/§2 rate limits (per window); the counts are instance settings (default 10, 20, 5), read at
 * start-up, except registrations per client address (REGISTRATION_RATE_LIMIT_PER_HOUR).
 * Sign-ins count failures only, per (email, client address): another address's failures never lock a
 * user out; the per-address count (across emails) slows spraying from one client.
 */
function rateLimits(settings: InstanceSettings, config: AccountsConfig) {
  return {
    failedLoginsPerEmailAndIp: (email: string, ip: string) => ({
      key: `login:failed:${ip}:${email}`,
      limit: settings.integer('rate_limit_login_per_email'),
      windowSeconds: 15 * MINUTE,
    }),
    failedLoginsPerIp: (ip: string) => ({
      key: `login:failed-ip:${ip}`,
      limit: settings.integer('rate_limit_login_per_ip'),
      windowSeconds: 15 * MINUTE,
    }),
    registerPerEmail: { limit: settings.integer('rate_limit_register_per_email'), windowSeconds: 60 * MINUTE },
    registerPerIp: (ip: string) => ({
      key: `register:ip:${ip}`,
      limit: config.REGISTRATION_RATE_LIMIT_PER_HOUR,
      windowSeconds: 60 * MINUTE,
    }),
  };
}

/** E9's last_active_at: a sign-in or a token refresh (access tokens are verified without us, so requests cannot count). */
const markActive = (db: EntityManager, userId: string) => db.query(`UPDATE users SET last_active_at = now() WHERE id = $1`, [userId]);

@Injectable()
export class AuthService implements OnModuleInit, OnApplicationShutdown {
  private readonly limiter: RateLimiter;
  private readonly limits: ReturnType<typeof rateLimits>;
  private pruneTimer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) private readonly config: AccountsConfig,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly signer: AccessTokenSigner,
    private readonly settings: InstanceSettings,
  ) {
    this.limiter = new RateLimiter(dataSource);
    this.limits = rateLimits(settings, config);
  }

  /** Old rate-limit windows are dead weight; any replica may sweep them. */
  onModuleInit() {
    this.pruneTimer = setInterval(() => void this.limiter.prune().catch(() => undefined), 3_600_000).unref();
  }

  onApplicationShutdown() {
    clearInterval(this.pruneTimer);
  }

  async register(input: RegisterRequest, clientIp: string): Promise<AuthTokens> {
    const email = input.email.trim();
    await this.limiter.hit(this.limits.registerPerIp(clientIp));
    await this.limiter.hit({ key: `register:email:${normalizeEmail(email)}`, ...this.limits.registerPerEmail });
    // A taken email or username is refused before any hashing: probing them costs us no CPU (checked again below, under the lock).
    await this.assertAvailable(this.dataSource.manager, email, input.username);
    const passwordHash = await hashPassword(input.password);
    const user = await this.dataSource.transaction(async (db) => {
      // Serialises registrations so exactly one first user becomes instance admin.
      await db.query(`SELECT pg_advisory_xact_lock(hashtext('accounts:register'))`);
      await this.assertAvailable(db, email, input.username);
      const adminExists = await db.getRepository(UserEntity).exists({ where: { isAdmin: true } });
      // A live setting: an administrator's change applies within moments, no restart.
      if (adminExists && !this.settings.boolean('registration_enabled')) {
        throw problems.forbidden('registration_disabled', 'Registration is closed on this instance.');
      }
      return db.getRepository(UserEntity).save(
        db.getRepository(UserEntity).create({
          id: uuidv7(),
          email,
          emailVerified: false,
          passwordHash,
          displayName: input.display_name?.trim() || email.split('@')[0],
          username: input.username ?? null,
          isAdmin: !adminExists,
        }),
      );
    });
    return this.openSession(user);
  }

  async login(input: LoginRequest, clientIp: string): Promise<AuthTokens> {
    const email = normalizeEmail(input.email);
    const user = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .where('lower(u.email) = :email', { email })
      .getOne();
    await this.checkPassword(email, clientIp, user?.passwordHash ?? null, input.password, () =>
      problems.unauthorized('invalid_credentials', 'The email or password is not correct.'),
    );
    return this.openSession(user!);
  }

  /**
   * A password check counted like a failed sign-in (docs/decisions.md): the attempt is counted before it is
   * judged, so parallel guesses cannot slip past the limit, and taken back when the password is right.
   * Also used by POST /auth/password for the current password.
   */
  async checkPassword(email: string, clientIp: string, passwordHash: string | null, password: string, refusal: () => Error): Promise<void> {
    const rules = [this.limits.failedLoginsPerEmailAndIp(normalizeEmail(email), clientIp), this.limits.failedLoginsPerIp(clientIp)];
    for (const rule of rules) await this.limiter.hit(rule);
    if (!(await verifyPassword(passwordHash, password))) throw refusal();
    for (const rule of rules) await this.limiter.release(rule);
  }

  /** Rotates the pair; presenting an already-rotated refresh token revokes its whole session. */
  async refresh(refreshToken: string): Promise<AuthTokens> {
    const refused = () => problems.unauthorized('invalid_refresh_token', 'The refresh token is not valid; sign in again.');
    const outcome = await this.dataSource.transaction(async (db) => {
      const token = await db.getRepository(RefreshTokenEntity).findOne({
        where: { tokenHash: hashOpaqueToken(refreshToken) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!token) return { error: refused() };
      const session = await db.getRepository(SessionEntity).findOneBy({ id: token.sessionId });
      if (!session || session.revokedAt || session.expiresAt <= new Date()) return { error: refused() };
      if (token.usedAt) {
        await this.revoke(db, session, 'refresh_token_reused');
        return { error: refused(), revoked: session };
      }
      await db.getRepository(RefreshTokenEntity).update({ tokenHash: token.tokenHash }, { usedAt: new Date() });
      const user = await db.getRepository(UserEntity).findOneByOrFail({ id: session.userId });
      await markActive(db, user.id);
      return { tokens: await this.issueTokens(db, user, session) };
    });
    if (outcome.revoked) this.announceRevocation(outcome.revoked);
    if (outcome.error) throw outcome.error;
    return outcome.tokens!;
  }

  async logout(sessionId: string): Promise<void> {
    const session = await this.dataSource.transaction(async (db) => {
      const found = await db.getRepository(SessionEntity).findOneBy({ id: sessionId, revokedAt: IsNull() });
      if (found) await this.revoke(db, found, 'logout');
      return found;
    });
    if (session) this.announceRevocation(session);
  }

  /** Sessions whose access tokens may still be unexpired although the session is revoked. */
  async recentlyRevoked(): Promise<SessionRevokedEvent[]> {
    const since = new Date(Date.now() - this.signer.ttlSeconds * 1000);
    const sessions = await this.dataSource
      .getRepository(SessionEntity)
      .find({ where: { revokedAt: MoreThan(since) }, select: { id: true, revokedAt: true } });
    return sessions.map((s) => this.revocationEvent(s));
  }

  /** A new session and its first token pair: after a password, a registration or a passkey (passkey-sign-in.service.ts). */
  async openSession(user: UserEntity): Promise<AuthTokens> {
    return this.dataSource.transaction(async (db) => {
      const now = new Date();
      const session = await db.getRepository(SessionEntity).save({
        id: uuidv7(),
        userId: user.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + this.config.SESSION_TTL_DAYS * 86_400_000),
        revokedAt: null,
        revokeReason: null,
      });
      await markActive(db, user.id);
      return this.issueTokens(db, user, session);
    });
  }

  private async issueTokens(db: EntityManager, user: UserEntity, session: SessionEntity): Promise<AuthTokens> {
    const refresh = newOpaqueToken('rt');
    await db.getRepository(RefreshTokenEntity).insert({
      tokenHash: refresh.hash,
      sessionId: session.id,
      createdAt: new Date(),
      usedAt: null,
    });
    return {
      access_token: await this.signer.sign({ userId: user.id, sessionId: session.id, isAdmin: user.isAdmin }),
      token_type: 'Bearer',
      expires_in: this.signer.ttlSeconds,
      refresh_token: refresh.token,
      user: toUserProfile(user),
    };
  }

  private async assertAvailable(db: EntityManager, email: string, username: string | undefined) {
    const users = db.getRepository(UserEntity).createQueryBuilder('u');
    if (await emailTaken(db, email)) {
      throw problems.conflict('email_taken', 'An account with this email already exists.');
    }
    if (username && (await users.clone().where('lower(u.username) = :u', { u: username.toLowerCase() }).getExists())) {
      throw problems.conflict('username_taken', 'This username is taken.');
    }
  }

  private async revoke(db: EntityManager, session: SessionEntity, reason: string) {
    session.revokedAt = new Date();
    session.revokeReason = reason;
    await db.getRepository(SessionEntity).update({ id: session.id }, { revokedAt: session.revokedAt, revokeReason: reason });
  }

  private revocationEvent(session: Pick<SessionEntity, 'id' | 'revokedAt'>): SessionRevokedEvent {
    const until = new Date((session.revokedAt ?? new Date()).getTime() + this.signer.ttlSeconds * 1000);
    return { sessionId: session.id, until: until.toISOString() };
  }

  /** Ends every live session of a user except one, inside the caller's transaction; announce them after commit. */
  async revokeOtherSessions(
    db: EntityManager,
    userId: string,
    keepSessionId: string,
    reason: string,
  ): Promise<Array<Pick<SessionEntity, 'id' | 'revokedAt'>>> {
    return changedRows<Pick<SessionEntity, 'id' | 'revokedAt'>>(
      db,
      `UPDATE sessions SET revoked_at = now(), revoke_reason = $3
       WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL
       RETURNING id, revoked_at AS "revokedAt"`,
      [userId, keepSessionId, reason],
    );
  }

  /** Every gateway replica listens and stops accepting the session's access tokens at once. */
  announceRevocation(session: Pick<SessionEntity, 'id' | 'revokedAt'>) {
    this.nats.publish(SESSION_REVOKED_SUBJECT, JSON.stringify(this.revocationEvent(session)));
  }
}
