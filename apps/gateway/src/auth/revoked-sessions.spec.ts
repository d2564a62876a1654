import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { AccountsPatterns, SESSION_REVOKED_SUBJECT } from '@social/contracts';
import type { RpcClient } from '@social/platform';
import type { Logger } from 'pino';
import { RevokedSessions } from './revoked-sessions.js';

const NOW = new Date('2030-06-01T12:00:00.000Z');
/** One turn of the event loop (setImmediate is left real): every answer already given has been handled. */
const settled = () => new Promise((resolve) => setImmediate(resolve));
const inMinutes = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
});

afterEach(() => {
  jest.useRealTimers();
});

/** Revoked sessions over a NATS we can publish on (status: none) and an accounts answering `recent` at start. */
function revokedSessions(recent: unknown = []) {
  const callbacks: Array<(error: Error | null, msg: { subject: string; json: () => unknown }) => void> = [];
  const asked: unknown[] = [];
  const dropped: unknown[] = [];
  const nats = {
    subscribe: (subject: string, options: { callback: (typeof callbacks)[number] }) => {
      if (subject === SESSION_REVOKED_SUBJECT) callbacks.push(options.callback);
      return { unsubscribe: () => undefined };
    },
    status: async function* () {},
  } as unknown as NatsConnection;
  const rpc = {
    send: async (pattern: string) => {
      asked.push(pattern);
      if (recent instanceof Error) throw recent;
      return recent;
    },
  } as unknown as RpcClient;
  const logger = { warn: (...args: unknown[]) => dropped.push(args), info: () => undefined } as unknown as Logger;
  const sessions = new RevokedSessions(nats, rpc, logger);
  sessions.onModuleInit();
  const publish = (payload: unknown) =>
    callbacks.forEach((callback) => callback(null, { subject: SESSION_REVOKED_SUBJECT, json: () => payload }));
  return { sessions, publish, asked, dropped };
}

describe('RevokedSessions', () => {
  it('refuses a session announced as revoked, until its access tokens have expired', () => {
    const { sessions, publish } = revokedSessions();
    expect(sessions.isRevoked('session-1')).toBe(false);
    publish({ sessionId: 'session-1', until: inMinutes(15) });
    expect(sessions.isRevoked('session-1')).toBe(true);
    expect(sessions.isRevoked('session-2')).toBe(false);
    jest.setSystemTime(new Date(inMinutes(15)));
    expect(sessions.isRevoked('session-1')).toBe(false);
    sessions.onApplicationShutdown();
  });

  it('loads the recent revocations from accounts at start', async () => {
    const { sessions, asked } = revokedSessions([{ sessionId: 'session-9', until: inMinutes(5) }]);
    await settled();
    expect(asked).toEqual([AccountsPatterns.listRevokedSessions]);
    expect(sessions.isRevoked('session-9')).toBe(true);
    sessions.onApplicationShutdown();
  });

  it('asks accounts again every two seconds until it answers', async () => {
    const { sessions, asked } = revokedSessions(new Error('no responders'));
    await settled();
    expect(asked).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(asked).toHaveLength(2);
    sessions.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(asked).toHaveLength(2);
  });

  it('drops, without failing, announcements it cannot read', () => {
    const { sessions, publish, dropped } = revokedSessions();
    publish({ sessionId: 'session-1' });
    publish({ sessionId: 'session-1', until: 'tomorrow' });
    publish('session-1');
    expect(sessions.isRevoked('session-1')).toBe(false);
    expect(dropped).toHaveLength(3);
    sessions.onApplicationShutdown();
  });
});
