import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { MEMBERSHIP_CHANGED_SUBJECT, TenancyPatterns } from '@social/contracts';
import type { RpcClient } from '@social/platform';
import type { Logger } from 'pino';
import { EventSources, validWorkspaceId } from './event-sources.js';
import type { NotificationDispatcher } from './notification-dispatcher.js';
import type { OutgoingNotification } from './outgoing-notification.js';

const WORKSPACE = '0190a000-0000-7000-8000-0000000000a1';
const meta = { eventId: 'outbox-row-1', seq: 7 };

afterEach(() => {
  jest.useRealTimers();
});

/** Event sources over a recording dispatcher, an accounts that counts its answers, and a NATS we can speak on. */
function sources() {
  const dispatched: Array<{ eventId: string; message: OutgoingNotification }> = [];
  const warnings: unknown[] = [];
  const asked: unknown[] = [];
  const subscribers: Array<() => void> = [];
  const dispatcher = {
    dispatch: async (eventId: string, message: OutgoingNotification) => {
      dispatched.push({ eventId, message });
      return 1;
    },
  } as unknown as NotificationDispatcher;
  const rpc = {
    send: async (pattern: string, request: unknown) => {
      asked.push({ pattern, request });
      return { workspace_name: `answer ${asked.length}`, recipients: [] };
    },
  } as unknown as RpcClient;
  const nats = {
    subscribe: (subject: string, options: { callback: () => void }) => {
      if (subject === MEMBERSHIP_CHANGED_SUBJECT) subscribers.push(options.callback);
      return { unsubscribe: () => undefined };
    },
  } as unknown as NatsConnection;
  const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
  const events = new EventSources(dispatcher, rpc, nats, logger);
  events.onModuleInit();
  return { events, dispatched, warnings, asked, membershipChanged: () => subscribers.forEach((callback) => callback()) };
}

const message: OutgoingNotification = {
  topic: 'post_published',
  workspaceId: WORKSPACE,
  recipients: ['u'],
  title: 't',
  body: 'b',
  link: '',
};

describe('delivering an event', () => {
  it("keys the notification by the producer's event_id, the same on every redelivery", async () => {
    const { events, dispatched } = sources();
    await events.deliver('s', { event_id: 'evt-42' }, meta, async () => message);
    expect(dispatched).toEqual([{ eventId: 'evt-42', message }]);
  });

  it('falls back to the message id when the payload has no usable event_id', async () => {
    const { events, dispatched } = sources();
    await events.deliver('s', { event_id: '' }, meta, async () => message);
    await events.deliver('s', { event_id: 'x'.repeat(201) }, meta, async () => message);
    await events.deliver('s', { event_id: 42 }, meta, async () => message);
    expect(dispatched.map((d) => d.eventId)).toEqual(['outbox-row-1', 'outbox-row-1', 'outbox-row-1']);
  });

  it('acknowledges, with a warning, a payload that is not an object or that the source cannot read', async () => {
    const { events, dispatched, warnings } = sources();
    const describe = jest.fn(async () => message);
    await events.deliver('s', 'text', meta, describe);
    await events.deliver('s', null, meta, describe);
    expect(describe).not.toHaveBeenCalled();
    await events.deliver('s', {}, meta, async () => null);
    expect(dispatched).toEqual([]);
    expect(warnings).toHaveLength(3);
  });
});

describe('workspace members of an event', () => {
  it('are asked of accounts once for a burst of events, per workspace and role', async () => {
    jest.useFakeTimers({ now: new Date('2030-06-01T12:00:00.000Z'), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { events, asked } = sources();
    expect((await events.workspaceMembers(WORKSPACE, 'editor')).workspace_name).toBe('answer 1');
    expect((await events.workspaceMembers(WORKSPACE, 'editor')).workspace_name).toBe('answer 1');
    expect(asked).toEqual([{ pattern: TenancyPatterns.workspaceRecipients, request: { workspace_id: WORKSPACE, min_role: 'editor' } }]);
    expect((await events.workspaceMembers(WORKSPACE, 'viewer')).workspace_name).toBe('answer 2');
  });

  it('are asked again once the answer is five seconds old', async () => {
    jest.useFakeTimers({ now: new Date('2030-06-01T12:00:00.000Z'), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { events } = sources();
    await events.workspaceMembers(WORKSPACE, 'editor');
    jest.setSystemTime(new Date('2030-06-01T12:00:04.999Z'));
    expect((await events.workspaceMembers(WORKSPACE, 'editor')).workspace_name).toBe('answer 1');
    jest.setSystemTime(new Date('2030-06-01T12:00:05.000Z'));
    expect((await events.workspaceMembers(WORKSPACE, 'editor')).workspace_name).toBe('answer 2');
  });

  it('are asked again after any membership change', async () => {
    const { events, membershipChanged } = sources();
    await events.workspaceMembers(WORKSPACE, 'editor');
    membershipChanged();
    expect((await events.workspaceMembers(WORKSPACE, 'editor')).workspace_name).toBe('answer 2');
  });
});

describe('validWorkspaceId', () => {
  it('takes UUIDs only', () => {
    expect(validWorkspaceId(WORKSPACE)).toBe(true);
    expect(validWorkspaceId('workspace-1')).toBe(false);
    expect(validWorkspaceId(undefined)).toBe(false);
  });
});
