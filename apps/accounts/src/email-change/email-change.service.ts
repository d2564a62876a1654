import { Inject, Injectable } from '@nestjs/common';
import { EmailChangeSummary, PendingEmailChange, Principal, RequestEmailChangeRequest, UserProfile } from '@social/contracts';
import {
  isUniqueViolation,
  isUuid,
  MailDeliveryError,
  Mailer,
  pathId,
  Problem,
  problems,
  RateLimiter,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
} from '@social/platform';
import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { DataSource } from 'typeorm';
import { AuthService } from '../auth/auth.service.js';
import type { AccountsConfig } from '../config.js';
import { toUserProfile } from '../profile/user-profile.mapper.js';
import { ReauthService } from '../reauth/reauth.service.js';
import { UserEntity } from '../users/user.entity.js';
import { accountGone, emailTaken, normalizeEmail } from '../users/users.js';
import { enqueueSecurityAction } from '../users/security-events.js';
import { EmailChangeEntity } from './email-change.entity.js';

const CODE_TTL_MS = 15 * 60_000;
/** The 5th wrong code locks the change; only a new request (with a new code) goes on. */
export const MAX_FAILED_ATTEMPTS = 5;
/** Contract §1: 5 accepted requests per user per 15 minutes. */
const REQUESTS = { limit: 5, windowSeconds: 15 * 60 };

export function toEmailChangeSummary(change: EmailChangeEntity): EmailChangeSummary {
  return {
    id: change.id,
    new_email: change.newEmail,
    sent_at: change.sentAt.toISOString(),
    expires_at: change.expiresAt.toISOString(),
  };
}

/** "ada@example.com" → "a***@example.com": enough for the owner to recognise, little for anyone else. */
function mask(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

@Injectable()
export class EmailChangeService {
  private readonly limiter: RateLimiter;
  private readonly codeKey: Buffer;

  constructor(
    private readonly dataSource: DataSource,
    private readonly reauth: ReauthService,
    private readonly auth: AuthService,
    private readonly mailer: Mailer,
    @Inject(SERVICE_CONFIG) config: AccountsConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.limiter = new RateLimiter(dataSource);
    this.codeKey = createHash('sha256').update('email-change-code\0').update(config.SECRETS_KEY).digest();
  }

  /**
   * E2. Everything happens in one transaction that commits only once the code
   * has been handed to SMTP: a refusal at any step (401, 409, 429, 503) leaves
   * no pending change, the earlier pending change as it was, the grant unused
   * and the request uncounted.
   */
  async request(principal: Principal, input: RequestEmailChangeRequest): Promise<EmailChangeSummary> {
    const newEmail = input.new_email.trim();
    const { change, oldEmail } = await this.dataSource.transaction(async (db) => {
      await this.reauth.consume(db, principal, input.reauth_grant);
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`email-change:${principal.userId}`]);
      const user = await db.getRepository(UserEntity).findOneBy({ id: principal.userId });
      if (!user) throw accountGone();
      if (normalizeEmail(user.email) === normalizeEmail(newEmail) || (await emailTaken(db, newEmail, user.id))) {
        throw problems.conflict('email_unavailable', 'This address is already yours or belongs to another account.');
      }
      // Counted inside the transaction, so refused requests (rolled back) do not count.
      await this.limiter.hit({ key: `email-change:${user.id}`, ...REQUESTS }, db);
      const changes = db.getRepository(EmailChangeEntity);
      const now = new Date();
      await changes.update({ userId: user.id, status: 'pending' }, { status: 'superseded', resolvedAt: now });
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const id = uuidv7();
      const saved = await changes.save({
        id,
        userId: user.id,
        newEmail,
        codeHash: this.codeHash(id, code),
        failedAttempts: 0,
        status: 'pending',
        sentAt: now,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
        resolvedAt: null,
      });
      await this.deliver({
        to: newEmail,
        subject: 'Your verification code',
        text:
          `Your verification code is ${code}.\n\n` +
          `Enter it to make ${newEmail} the sign-in email of your account. It expires in 15 minutes.\n` +
          `If you did not ask for this, ignore this mail.\n`,
      });
      return { change: saved, oldEmail: user.email };
    });
    // The old address is told, but a dead or slow old mailbox (a common reason to move) must not block the change.
    void this.mailer
      .send({
        to: oldEmail,
        subject: 'Your sign-in email is being changed',
        text:
          `Someone signed in to your account asked to change its sign-in email to ${mask(newEmail)}.\n\n` +
          `If this was not you, sign in, cancel the change under security settings, and change your password.\n`,
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'email-change notice to the old address failed'));
    return toEmailChangeSummary(change);
  }

  /** Wrong codes are counted (committed) even though the answer is a refusal. */
  async confirm(principal: Principal, changeId: string, code: string): Promise<UserProfile> {
    const outcome = await this.dataSource.transaction(async (db) => {
      const changes = db.getRepository(EmailChangeEntity);
      const change = isUuid(changeId)
        ? await changes.findOne({ where: { id: changeId, userId: principal.userId }, lock: { mode: 'pessimistic_write' } })
        : null;
      if (!change) return { error: problems.notFound('No such email change.') };
      if (change.status === 'locked') return { error: lockedProblem() };
      if (change.status !== 'pending') return { error: notPendingProblem() };
      if (change.expiresAt <= new Date()) {
        return { error: problems.conflict('email_change_expired', 'The code has expired; request the change again.') };
      }
      if (!this.codeMatches(change, code)) {
        change.failedAttempts += 1;
        const left = MAX_FAILED_ATTEMPTS - change.failedAttempts;
        if (left <= 0) Object.assign(change, { status: 'locked', resolvedAt: new Date() });
        await changes.save(change);
        return {
          error: new Problem(422, 'invalid_code', `The code is not correct; ${left} attempt(s) left.`, {
            errors: [{ location: 'body.code', message: 'is not the code that was sent' }],
            extensions: { attempts_remaining: left },
          }),
        };
      }
      const users = db.getRepository(UserEntity);
      const user = await users.findOne({ where: { id: principal.userId }, lock: { mode: 'pessimistic_write' } });
      if (!user) return { error: accountGone() };
      if (await emailTaken(db, change.newEmail, user.id)) {
        return { error: problems.conflict('email_unavailable', 'This address now belongs to another account.') };
      }
      Object.assign(user, { email: change.newEmail, emailVerified: true });
      // Another account may take the address between our check and this write.
      const saved = await users.save(user).catch((error: unknown) => {
        if (isUniqueViolation(error)) throw problems.conflict('email_unavailable', 'This address is not available.');
        throw error;
      });
      await changes.update({ id: change.id }, { status: 'confirmed', resolvedAt: new Date() });
      const revoked = await this.auth.revokeOtherSessions(db, user.id, principal.sessionId, 'email_changed');
      await enqueueSecurityAction(db, user.id, 'email_changed', change.newEmail);
      return { profile: toUserProfile(saved), revoked };
    });
    if (outcome.error) throw outcome.error;
    outcome.revoked.forEach((session) => this.auth.announceRevocation(session));
    return outcome.profile;
  }

  async pending(userId: string): Promise<PendingEmailChange> {
    const change = await this.dataSource
      .getRepository(EmailChangeEntity)
      .createQueryBuilder('c')
      .where(`c.user_id = :userId AND c.status = 'pending' AND c.expires_at > now()`, { userId })
      .getOne();
    return { pending: change ? toEmailChangeSummary(change) : null };
  }

  /** One of the caller's email changes, whatever its state (the `Location` of a new one); another user's is 404. */
  async get(userId: string, rawId: string): Promise<EmailChangeSummary> {
    const change = await this.dataSource.getRepository(EmailChangeEntity).findOneBy({ id: pathId(rawId, 'No such email change.'), userId });
    if (!change) throw problems.notFound('No such email change.');
    return toEmailChangeSummary(change);
  }

  /** Another user's change is answered exactly like a missing one. */
  async cancel(userId: string, changeId: string): Promise<void> {
    await this.dataSource.transaction(async (db) => {
      const changes = db.getRepository(EmailChangeEntity);
      const change = isUuid(changeId)
        ? await changes.findOne({ where: { id: changeId, userId }, lock: { mode: 'pessimistic_write' } })
        : null;
      if (!change) throw problems.notFound('No such email change.');
      if (change.status !== 'pending') throw notPendingProblem();
      await changes.update({ id: change.id }, { status: 'cancelled', resolvedAt: new Date() });
    });
  }

  private async deliver(message: { to: string; subject: string; text: string }) {
    try {
      await this.mailer.send(message);
    } catch (error) {
      if (!(error instanceof MailDeliveryError)) throw error;
      this.logger.warn({ reason: error.reason, err: error.message }, 'email-change code could not be sent');
      throw problems.unavailable('email_unavailable_delivery', 'The verification code could not be sent; try again later.', 30);
    }
  }

  /** HMAC keyed by SECRETS_KEY and bound to the change: a leaked table cannot be brute-forced offline. */
  private codeHash(changeId: string, code: string): string {
    return createHmac('sha256', this.codeKey).update(`${changeId}:${code}`).digest('hex');
  }

  private codeMatches(change: EmailChangeEntity, code: string): boolean {
    return timingSafeEqual(Buffer.from(this.codeHash(change.id, code), 'hex'), Buffer.from(change.codeHash, 'hex'));
  }
}

const lockedProblem = () =>
  problems.conflict('code_locked', `The code was entered wrongly ${MAX_FAILED_ATTEMPTS} times; request the change again.`);
const notPendingProblem = () =>
  problems.conflict('email_change_not_pending', 'This email change is no longer pending (confirmed, cancelled or replaced).');
