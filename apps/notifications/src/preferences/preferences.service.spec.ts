import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { AccountsPatterns, type TopicPreference } from '@social/contracts';
import type { RpcClient } from '@social/platform';
import type { DataSource } from 'typeorm';
import { PreferencesService } from './preferences.service.js';
import { TOPIC_DEFINITIONS } from './topics.js';

afterEach(() => {
  jest.useRealTimers();
});

interface Stored {
  digest_time: string | null;
  digest_timezone: string | null;
  topics: Record<string, TopicPreference> | null;
  mutes: unknown[];
}

/** Preferences over one stored row (read through a prepared statement) and an accounts that knows `email`. */
function preferences(stored: Partial<Stored> = {}, email = 'ada@example.com') {
  const contactsAsked: unknown[] = [];
  const writes: unknown[][] = [];
  const row: Stored = { digest_time: null, digest_timezone: null, topics: null, mutes: [], ...stored };
  const dataSource = {
    driver: { master: { query: async () => ({ rows: [row] }) } },
    query: async (_sql: string, params: unknown[]) => {
      writes.push(params);
      return [];
    },
  } as unknown as DataSource;
  const rpc = {
    send: async (pattern: string, request: unknown) => {
      contactsAsked.push({ pattern, request });
      return { userId: 'u1', email, emailVerified: true };
    },
  } as unknown as RpcClient;
  return { service: new PreferencesService(dataSource, rpc), contactsAsked, writes };
}

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);

describe('notification preferences', () => {
  it('default to a 09:00 UTC digest nobody asked for, every topic at its default', async () => {
    const settings = await preferences().service.get('u1');
    expect(settings).toMatchObject({
      digest_time: '09:00',
      digest_timezone: 'UTC',
      digest_configured: false,
      email_address: 'ada@example.com',
      email_available: true,
      mutes: [],
    });
    expect(Object.keys(settings.preferences)).toEqual(TOPIC_DEFINITIONS.map((t) => t.id));
    expect(settings.preferences.post_published).toEqual({ email_frequency: 'off', in_app: true });
  });

  it('count as a configured digest once any topic is daily', async () => {
    const settings = await preferences({
      digest_time: '18:30',
      digest_timezone: 'Europe/Paris',
      topics: { new_message: { email_frequency: 'daily', in_app: false } },
    }).service.get('u1');
    expect(settings).toMatchObject({ digest_time: '18:30', digest_timezone: 'Europe/Paris', digest_configured: true });
    expect(settings.preferences.new_message).toEqual({ email_frequency: 'daily', in_app: false });
  });

  it('say when the account has no address to mail', async () => {
    expect(await preferences({}, '').service.get('u1')).toMatchObject({ email_address: '', email_available: false });
  });

  it('ask accounts for the address at most every 30 seconds', async () => {
    jest.useFakeTimers({ now: new Date('2030-06-01T12:00:00.000Z'), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { service, contactsAsked } = preferences();
    await service.get('u1');
    await service.get('u1');
    expect(contactsAsked).toEqual([{ pattern: AccountsPatterns.getContact, request: { userId: 'u1' } }]);
    jest.setSystemTime(new Date('2030-06-01T12:00:30.001Z'));
    await service.get('u1');
    expect(contactsAsked).toHaveLength(2);
  });
});

describe('replacing preferences', () => {
  it('reports every invalid entry at once, storing nothing', async () => {
    const { service, writes } = preferences();
    const refusal = await refusalOf(
      service.replace('u1', {
        preferences: {
          birthdays: { email_frequency: 'off', in_app: true },
          publish_failed: { email_frequency: 'off', in_app: false },
          security_action: { email_frequency: 'daily', in_app: true },
          post_published: { email_frequency: 'hourly', in_app: true } as unknown as TopicPreference,
        },
      }),
    );
    expect(refusal).toMatchObject({ status: 422 });
    expect((refusal as { options: { errors: Array<{ location: string }> } }).options.errors.map((e) => e.location)).toEqual([
      'body.preferences.birthdays',
      'body.preferences.publish_failed.in_app',
      'body.preferences.security_action.email_frequency',
      'body.preferences.post_published.email_frequency',
    ]);
    expect(writes).toEqual([]);
  });

  it('refuses a time zone that is not an IANA name', async () => {
    const { service, writes } = preferences();
    expect(await refusalOf(service.replace('u1', { preferences: {}, digest_timezone: 'CEST' }))).toMatchObject({
      options: { errors: [{ location: 'body.digest_timezone', value: 'CEST' }] },
    });
    expect(writes).toEqual([]);
  });

  it('stores the sent map whole, leaving digest settings not sent to the stored row (or the defaults)', async () => {
    const { service, writes } = preferences();
    await service.replace('u1', {
      preferences: { post_published: { email_frequency: 'daily', in_app: false } },
      digest_time: '07:15',
    });
    expect(writes).toEqual([
      ['u1', '07:15', null, JSON.stringify({ post_published: { email_frequency: 'daily', in_app: false } }), '09:00', 'UTC'],
    ]);
  });
});
