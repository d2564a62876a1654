import { describe, expect, it } from '@jest/globals';
import type { Principal } from '@social/contracts';
import type { Mailer } from '@social/platform';
import { createHash, createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { AuthService } from '../auth/auth.service.js';
import type { AccountsConfig } from '../config.js';
import type { ReauthService } from '../reauth/reauth.service.js';
import { UserEntity } from '../users/user.entity.js';
import { EmailChangeEntity } from './email-change.entity.js';
import { EmailChangeService, MAX_FAILED_ATTEMPTS, toEmailChangeSummary } from './email-change.service.js';

const SECRETS_KEY = Buffer.alloc(32, 3).toString('base64');
const USER = '0190a000-0000-7000-8000-0000000000aa';
const CHANGE = '0190a000-0000-7000-8000-0000000000c1';
const principal: Principal = { userId: USER, sessionId: 's', isAdmin: false, tokenKind: 'session', workspaceId: null };

/** How the service keeps a code: an HMAC keyed by SECRETS_KEY over `<change id>:<code>`. */
function codeHash(changeId: string, code: string): string {
  const key = createHash('sha256').update('email-change-code\0').update(SECRETS_KEY).digest();
  return createHmac('sha256', key).update(`${changeId}:${code}`).digest('hex');
}

const pendingChange = (values: Partial<EmailChangeEntity> = {}): EmailChangeEntity =>
  Object.assign(new EmailChangeEntity(), {
    id: CHANGE,
    userId: USER,
    newEmail: 'new@example.com',
    codeHash: codeHash(CHANGE, '123456'),
    failedAttempts: 0,
    status: 'pending',
    sentAt: new Date(Date.now() - 60_000),
    expiresAt: new Date(Date.now() + 10 * 60_000),
    resolvedAt: null,
    ...values,
  });

/** One stored change of USER; records what was saved and whether the account was reached. */
function serviceWith(stored: EmailChangeEntity | null) {
  const saved: EmailChangeEntity[] = [];
  const looked: unknown[] = [];
  let accountRead = false;
  const changes = {
    findOne: async (options: { where: { id: string; userId: string } }) => {
      looked.push(options.where);
      return stored && stored.id === options.where.id && stored.userId === options.where.userId ? stored : null;
    },
    save: async (change: EmailChangeEntity) => {
      saved.push({ ...change });
      return change;
    },
  };
  const users = {
    findOne: async () => {
      accountRead = true;
      return null;
    },
  };
  const db = { getRepository: (entity: unknown) => (entity === EmailChangeEntity ? changes : entity === UserEntity ? users : undefined) };
  const dataSource = { transaction: async (work: (manager: unknown) => unknown) => work(db) } as unknown as DataSource;
  const service = new EmailChangeService(
    dataSource,
    {} as ReauthService,
    {} as AuthService,
    {} as Mailer,
    { SECRETS_KEY } as AccountsConfig,
    {} as Logger,
  );
  return { service, saved, looked, accountRead: () => accountRead };
}

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);

describe('email change confirmation', () => {
  it('counts a wrong code and says how many attempts are left', async () => {
    const { service, saved } = serviceWith(pendingChange());
    expect(await refusalOf(service.confirm(principal, CHANGE, '654321'))).toMatchObject({
      status: 422,
      code: 'invalid_code',
      options: { extensions: { attempts_remaining: MAX_FAILED_ATTEMPTS - 1 } },
    });
    expect(saved).toEqual([expect.objectContaining({ failedAttempts: 1, status: 'pending', resolvedAt: null })]);
  });

  it('locks the change at the fifth wrong code', async () => {
    const { service, saved } = serviceWith(pendingChange({ failedAttempts: MAX_FAILED_ATTEMPTS - 1 }));
    expect(await refusalOf(service.confirm(principal, CHANGE, '000000'))).toMatchObject({
      code: 'invalid_code',
      options: { extensions: { attempts_remaining: 0 } },
    });
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ failedAttempts: 5, status: 'locked' });
    expect(saved[0].resolvedAt).toBeInstanceOf(Date);
  });

  it('refuses even the right code once locked, counting nothing more', async () => {
    const { service, saved, accountRead } = serviceWith(pendingChange({ status: 'locked', failedAttempts: 5 }));
    expect(await refusalOf(service.confirm(principal, CHANGE, '123456'))).toMatchObject({ status: 409, code: 'code_locked' });
    expect(saved).toEqual([]);
    expect(accountRead()).toBe(false);
  });

  it('refuses an expired code without counting it', async () => {
    const { service, saved } = serviceWith(pendingChange({ expiresAt: new Date(Date.now() - 1_000) }));
    expect(await refusalOf(service.confirm(principal, CHANGE, '654321'))).toMatchObject({ status: 409, code: 'email_change_expired' });
    expect(saved).toEqual([]);
  });

  it.each(['confirmed', 'cancelled', 'superseded'] as const)('refuses a %s change', async (status) => {
    const { service, saved } = serviceWith(pendingChange({ status }));
    expect(await refusalOf(service.confirm(principal, CHANGE, '123456'))).toMatchObject({ status: 409, code: 'email_change_not_pending' });
    expect(saved).toEqual([]);
  });

  it('takes the right code (and goes on to the account) without counting a failure', async () => {
    const { service, saved, accountRead } = serviceWith(pendingChange({ failedAttempts: 3 }));
    // The account row is gone in this fake: the answer after a matching code.
    expect(await refusalOf(service.confirm(principal, CHANGE, '123456'))).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(accountRead()).toBe(true);
    expect(saved).toEqual([]);
  });

  it("binds a code to its change: another change's code does not match", async () => {
    const { service, saved } = serviceWith(pendingChange({ codeHash: codeHash('0190a000-0000-7000-8000-0000000000c2', '123456') }));
    expect(await refusalOf(service.confirm(principal, CHANGE, '123456'))).toMatchObject({ code: 'invalid_code' });
    expect(saved).toHaveLength(1);
  });

  it("answers another user's change and an id that is not a UUID as missing", async () => {
    const other = serviceWith(pendingChange({ userId: '0190a000-0000-7000-8000-0000000000bb' }));
    expect(await refusalOf(other.service.confirm(principal, CHANGE, '123456'))).toMatchObject({ status: 404 });
    expect(other.looked).toEqual([{ id: CHANGE, userId: USER }]);
    const malformed = serviceWith(pendingChange());
    expect(await refusalOf(malformed.service.confirm(principal, 'change-1', '123456'))).toMatchObject({ status: 404 });
    expect(malformed.looked).toEqual([]);
  });
});

describe('toEmailChangeSummary', () => {
  it('publishes the new address and times, never the code', () => {
    const summary = toEmailChangeSummary(
      pendingChange({ sentAt: new Date('2030-01-01T10:00:00.000Z'), expiresAt: new Date('2030-01-01T10:15:00.000Z') }),
    );
    expect(summary).toEqual({
      id: CHANGE,
      new_email: 'new@example.com',
      sent_at: '2030-01-01T10:00:00.000Z',
      expires_at: '2030-01-01T10:15:00.000Z',
    });
  });
});
