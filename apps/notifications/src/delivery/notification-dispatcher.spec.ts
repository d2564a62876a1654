import { describe, expect, it } from '@jest/globals';
import type { TopicPreference } from '@social/contracts';
import { fakeTransactionManager } from '@social/testing';
import type { DataSource } from 'typeorm';
import type { NotificationsMailSettings } from '../email/notifications-mail-settings.js';
import { NotificationDispatcher } from './notification-dispatcher.js';
import type { OutgoingNotification } from './outgoing-notification.js';

const WORKSPACE = '0190a000-0000-7000-8000-0000000000a1';
const ADA = '0190a000-0000-7000-8000-0000000000b1';
const BOB = '0190a000-0000-7000-8000-0000000000b2';
const OCCURRED = '2030-06-01T12:00:00.000Z';
const MUTE_ENDS = new Date('2030-06-01T18:00:00.000Z');

interface Recipient {
  user_id: string;
  topics: Record<string, TopicPreference> | null;
  held_until: Date | null;
}

/** What the dispatcher decided per recipient: the item columns it inserted, and who gets an immediate mail. */
interface Decision {
  items: Array<{ userId: string; inApp: boolean; digest: boolean; createdAt: string }>;
  mailedTo: string[];
  mail?: { subject: unknown; text: unknown };
}

/**
 * A transaction in which the recipients' settings are `recipients`; every item is new unless its user is in
 * `alreadyDelivered` (a redelivered event).
 */
async function dispatch(message: Partial<OutgoingNotification>, recipients: Recipient[], alreadyDelivered: string[] = []) {
  const decision: Decision = { items: [], mailedTo: [] };
  let statement = 0;
  const db = fakeTransactionManager(async (_sql: string, params: unknown[] = []) => {
    statement += 1;
    // The settings of one event (n = 0), then its items, then its mail rows.
    if (statement === 1) return recipients.map((r) => ({ n: 0, ...r }));
    if (statement === 2) {
      const [ids, , userIds] = params as [string[], string[], string[]];
      const [inApp, digest, createdAt] = params.slice(9) as [boolean[], boolean[], string[]];
      decision.items = userIds.map((userId, i) => ({ userId, inApp: inApp[i], digest: digest[i], createdAt: createdAt[i] }));
      return ids.filter((_, i) => !alreadyDelivered.includes(userIds[i])).map((id) => ({ id }));
    }
    if (statement === 3) {
      decision.mailedTo = params[6] as string[];
      decision.mail = { subject: params[2], text: params[3] };
    }
    return [];
  });
  // Outside a transaction the dispatcher reads (and, without mail, writes) through the pool's manager: the same fake.
  let transactions = 0;
  const dataSource = {
    manager: db,
    transaction: async (work: (manager: unknown) => unknown) => {
      transactions += 1;
      return work(db);
    },
  } as unknown as DataSource;
  const dispatcher = new NotificationDispatcher(dataSource, { publicAppUrl: 'https://app.example' } as NotificationsMailSettings);
  const created = await dispatcher.dispatch('event-1', {
    topic: 'post_published',
    workspaceId: WORKSPACE,
    recipients: recipients.map((r) => r.user_id),
    title: 'Published on mastodon',
    body: 'Your post is live.',
    link: '/publications/p1',
    occurredAt: OCCURRED,
    ...message,
  });
  return { created, ...decision, statements: statement, transactions };
}

const recipient = (user_id: string, topics: Recipient['topics'] = null, held_until: Date | null = null): Recipient => ({
  user_id,
  topics,
  held_until,
});

describe('dispatching a notification', () => {
  it('follows each recipient’s choice: defaults, in-app only, or a daily digest (no mail: one INSERT, no transaction)', async () => {
    const { created, items, mailedTo, transactions } = await dispatch({}, [
      recipient(ADA),
      recipient(BOB, { post_published: { email_frequency: 'daily', in_app: true } }),
    ]);
    expect(created).toBe(2);
    expect(items).toEqual([
      { userId: ADA, inApp: true, digest: false, createdAt: OCCURRED },
      { userId: BOB, inApp: true, digest: true, createdAt: OCCURRED },
    ]);
    expect(mailedTo).toEqual([]);
    expect(transactions).toBe(0);
  });

  it('makes nothing for a recipient who turned the topic off everywhere', async () => {
    const { created, items, statements } = await dispatch({}, [
      recipient(ADA, { post_published: { email_frequency: 'off', in_app: false } }),
    ]);
    expect(created).toBe(0);
    expect(items).toEqual([]);
    expect(statements).toBe(1);
  });

  it('mails at once whoever asked for it, with the app link made absolute (its item and mail row in one transaction)', async () => {
    const { items, mailedTo, mail, transactions } = await dispatch({}, [
      recipient(ADA, { post_published: { email_frequency: 'immediate', in_app: false } }),
      recipient(BOB),
    ]);
    expect(items[0]).toMatchObject({ userId: ADA, inApp: false });
    expect(mailedTo).toEqual([ADA]);
    expect(mail).toEqual({ subject: 'Published on mastodon', text: expect.stringContaining('https://app.example/publications/p1') });
    expect(transactions).toBe(1);
  });

  it('keeps critical topics in the inbox even when turned off there', async () => {
    const { items } = await dispatch({ topic: 'publish_failed' }, [
      recipient(ADA, { publish_failed: { email_frequency: 'off', in_app: false } }),
    ]);
    expect(items).toEqual([{ userId: ADA, inApp: true, digest: false, createdAt: OCCURRED }]);
  });

  it('always mails transactional topics at once, whatever was stored', async () => {
    const { mailedTo, items } = await dispatch({ topic: 'security_action', workspaceId: null }, [
      recipient(ADA, { security_action: { email_frequency: 'daily', in_app: false } }),
    ]);
    expect(items).toEqual([{ userId: ADA, inApp: true, digest: false, createdAt: OCCURRED }]);
    expect(mailedTo).toEqual([ADA]);
  });

  it('holds an optional topic until the mute ends', async () => {
    const { items } = await dispatch({}, [recipient(ADA, null, MUTE_ENDS)]);
    expect(items[0].createdAt).toBe(MUTE_ENDS.toISOString());
  });

  it('never holds a critical topic', async () => {
    const { items } = await dispatch({ topic: 'publish_failed' }, [recipient(ADA, null, MUTE_ENDS)]);
    expect(items[0].createdAt).toBe(OCCURRED);
  });

  it('mails nobody again on a redelivered event', async () => {
    const { created, mailedTo, statements } = await dispatch({ topic: 'security_action', workspaceId: null }, [recipient(ADA)], [ADA]);
    expect(created).toBe(0);
    expect(mailedTo).toEqual([]);
    expect(statements).toBe(2);
  });

  it('addresses each recipient once, whatever the case of their id', async () => {
    let asked: unknown;
    const db = fakeTransactionManager(async (_sql: string, params: unknown[]) => {
      asked ??= params[1];
      return [];
    });
    const dataSource = { manager: db, transaction: async (work: (manager: unknown) => unknown) => work(db) } as unknown as DataSource;
    const dispatcher = new NotificationDispatcher(dataSource, { publicAppUrl: '' } as NotificationsMailSettings);
    await dispatcher.dispatch('e', {
      topic: 'post_published',
      workspaceId: null,
      recipients: [ADA, ADA.toUpperCase()],
      title: '',
      body: '',
      link: '',
    });
    expect(asked).toEqual([ADA]);
  });

  it('refuses a topic outside the catalogue', async () => {
    await expect(dispatch({ topic: 'birthday' }, [recipient(ADA)])).rejects.toThrow('unknown topic birthday');
  });

  it('reads and writes the events that arrive meanwhile together, in one statement', async () => {
    const statements: Array<{ sql: string; params: unknown[] }> = [];
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const firstRead = new Promise<void>((resolve) => (release = resolve));
    const db = fakeTransactionManager(async (sql: string, params: unknown[] = []) => {
      statements.push({ sql, params });
      if (sql.includes('FROM mutes')) {
        if (statements.length === 1) {
          started();
          await firstRead;
        }
        const [events, users] = params as [number[], string[]];
        return users.map((user_id, i) => ({ n: events[i], user_id, topics: null, held_until: null }));
      }
      return (params[0] as string[]).map((id) => ({ id }));
    });
    const dataSource = { manager: db, transaction: async (work: (manager: unknown) => unknown) => work(db) } as unknown as DataSource;
    const dispatcher = new NotificationDispatcher(dataSource, { publicAppUrl: '' } as NotificationsMailSettings);
    const event = (recipients: string[]) =>
      ({ topic: 'post_published', workspaceId: WORKSPACE, recipients, title: 't', body: 'b', link: '' }) satisfies OutgoingNotification;
    const first = dispatcher.dispatch('e1', event([ADA]));
    // Two events arrive while the first one's settings are read: theirs are read together, after it.
    await firstStarted;
    const others = [dispatcher.dispatch('e2', event([ADA, BOB])), dispatcher.dispatch('e3', event([BOB]))];
    release();
    expect(await Promise.all([first, ...others])).toEqual([1, 2, 1]);
    const reads = statements.filter(({ sql }) => sql.includes('FROM mutes')).map(({ params }) => params.slice(0, 2));
    expect(reads).toEqual([
      [[0], [ADA]],
      [
        [0, 0, 1],
        [ADA, BOB, BOB],
      ],
    ]);
    // The items of the events read together are written together (with the first's too when it came within GATHER_MS).
    const writes = statements.filter(({ sql }) => sql.includes('INSERT INTO notifications')).map(({ params }) => params[1] as string[]);
    expect(writes.flat()).toEqual(['e1', 'e2', 'e2', 'e3']);
    expect(writes.at(-1)).toEqual(expect.arrayContaining(['e2', 'e3']));
  });
});
