import { describe, expect, it } from '@jest/globals';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { NotificationsConfig } from '../config.js';
import type { NotificationsMailSettings } from '../email/notifications-mail-settings.js';
import { DigestScheduler } from './digest-scheduler.js';

const ADA = '0190a000-0000-7000-8000-0000000000b1';

interface Waiting {
  user_id: string;
  oldest: Date;
  digest_time: string;
  digest_timezone: string;
  sent_dates: string[];
}

const waiting = (oldest: string, values: Partial<Waiting> = {}): Waiting => ({
  user_id: ADA,
  oldest: new Date(oldest),
  digest_time: '09:00',
  digest_timezone: 'UTC',
  sent_dates: [],
  ...values,
});

interface Line {
  title: string;
  body: string;
  link: string;
  created_at: Date;
}

/**
 * The scheduler over users with lines waiting. Each claim of a (user, day) is recorded and granted unless
 * `taken` (another replica sent it); the claimed transaction finds `lines`. Mails written are recorded.
 */
function scheduler(users: Waiting[], lines: Line[] = [], taken = false) {
  const claims: Array<{ userId: string; date: string; dueAt: string }> = [];
  const mails: Array<{ userId: string; subject: string; text: string }> = [];
  const dataSource = {
    query: async () => users,
    transaction: async (work: (db: unknown) => Promise<unknown>) => {
      let statement = 0;
      return work({
        query: async (_sql: string, params: unknown[] = []) => {
          statement += 1;
          if (statement === 1) {
            claims.push({ userId: params[0] as string, date: params[1] as string, dueAt: (params[2] as Date).toISOString() });
            return taken ? [] : [{ user_id: params[0] }];
          }
          if (statement === 2) return [lines.map((line) => ({ ...line })), lines.length];
          if (statement === 4) mails.push({ userId: params[1] as string, subject: params[2] as string, text: params[3] as string });
          return [];
        },
      });
    },
  } as unknown as DataSource;
  const digests = new DigestScheduler(
    dataSource,
    { publicAppUrl: 'https://app.example' } as NotificationsMailSettings,
    { NOTIFICATIONS_DIGEST_POLL_MS: 60_000 } as NotificationsConfig,
    { info: () => undefined } as unknown as Logger,
  );
  return { digests, claims, mails };
}

const line = (title: string, at: string): Line => ({ title, body: `${title} body`, link: '/publications/p1', created_at: new Date(at) });

describe('daily digests', () => {
  it('wait for the digest time after the oldest line', async () => {
    const { digests, claims } = scheduler([waiting('2030-06-01T07:00:00.000Z')]);
    expect(await digests.runOnce(new Date('2030-06-01T08:59:59.999Z'))).toBe(0);
    expect(claims).toEqual([]);
  });

  it('go at the digest time, one mail with every line, oldest first', async () => {
    const lines = [line('Second', '2030-06-01T08:00:00.000Z'), line('First', '2030-06-01T07:00:00.000Z')];
    const { digests, claims, mails } = scheduler([waiting('2030-06-01T07:00:00.000Z')], lines);
    expect(await digests.runOnce(new Date('2030-06-01T09:00:00.000Z'))).toBe(1);
    expect(claims).toEqual([{ userId: ADA, date: '2030-06-01', dueAt: '2030-06-01T09:00:00.000Z' }]);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Your daily digest for 2030-06-01: 2 notifications');
    expect(mails[0].text.indexOf('First')).toBeLessThan(mails[0].text.indexOf('Second'));
  });

  it('keep a line committed just after its day’s digest went for the next day', async () => {
    // Created before 09:00 but committed after the 2030-06-01 digest took the other lines.
    const user = waiting('2030-06-01T08:59:59.000Z', { sent_dates: ['2030-06-01'] });
    const early = scheduler([user], [line('Late', '2030-06-01T08:59:59.000Z')]);
    expect(await early.digests.runOnce(new Date('2030-06-02T08:59:00.000Z'))).toBe(0);
    expect(early.claims).toEqual([]);
    const nextDay = scheduler([user], [line('Late', '2030-06-01T08:59:59.000Z')]);
    expect(await nextDay.digests.runOnce(new Date('2030-06-02T09:00:00.000Z'))).toBe(1);
    expect(nextDay.claims).toEqual([{ userId: ADA, date: '2030-06-02', dueAt: '2030-06-02T09:00:00.000Z' }]);
  });

  it("go at once under today's date when the service missed the due time", async () => {
    const { digests, claims } = scheduler([waiting('2030-05-28T10:00:00.000Z')], [line('Old', '2030-05-28T10:00:00.000Z')]);
    expect(await digests.runOnce(new Date('2030-06-01T12:00:00.000Z'))).toBe(1);
    expect(claims).toEqual([{ userId: ADA, date: '2030-06-01', dueAt: '2030-05-29T09:00:00.000Z' }]);
  });

  it("follow the user's time zone", async () => {
    const user = waiting('2030-06-01T12:00:00.000Z', { digest_timezone: 'America/New_York' });
    expect(await scheduler([user], [line('L', '2030-06-01T12:00:00.000Z')]).digests.runOnce(new Date('2030-06-01T12:59:00.000Z'))).toBe(0);
    const due = scheduler([user], [line('L', '2030-06-01T12:00:00.000Z')]);
    expect(await due.digests.runOnce(new Date('2030-06-01T13:00:00.000Z'))).toBe(1);
    expect(due.claims).toEqual([{ userId: ADA, date: '2030-06-01', dueAt: '2030-06-01T13:00:00.000Z' }]);
  });

  it('send a day once: a day another replica claimed writes no mail', async () => {
    const { digests, mails } = scheduler([waiting('2030-06-01T07:00:00.000Z')], [line('L', '2030-06-01T07:00:00.000Z')], true);
    expect(await digests.runOnce(new Date('2030-06-01T10:00:00.000Z'))).toBe(0);
    expect(mails).toEqual([]);
  });

  it('write no empty mail when the lines were taken meanwhile', async () => {
    const { digests, claims, mails } = scheduler([waiting('2030-06-01T07:00:00.000Z')], []);
    expect(await digests.runOnce(new Date('2030-06-01T10:00:00.000Z'))).toBe(0);
    expect(claims).toHaveLength(1);
    expect(mails).toEqual([]);
  });
});
