import { describe, expect, it } from '@jest/globals';
import { call, expectProblem, locations, registerUser } from '../support/api.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';

const TOPICS = [
  'post_published',
  'publish_failed',
  'account_needs_attention',
  'new_engagement',
  'new_message',
  'reply_failed',
  'webhook_deactivated',
  'workspace_invite',
  'ownership_transfer',
  'security_action',
  'access_changed',
];
const put = (token: string, body: unknown) => call('PUT', '/notifications/preferences', { token, body });

describe('notifications: E26 GET /notifications/preferences', () => {
  it('answers the defaults for a new user, every field present', async () => {
    const user = await registerUser();
    const response = await call('GET', '/notifications/preferences', { token: user.token });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'PreferenceSettings');
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual([
      '$schema',
      'digest_configured',
      'digest_time',
      'digest_timezone',
      'email_address',
      'email_available',
      'mutes',
      'preferences',
      'topic_definitions',
    ]);
    expect(body).toMatchObject({
      digest_time: '09:00',
      digest_timezone: 'UTC',
      digest_configured: false,
      email_address: user.email,
      email_available: true,
      mutes: [],
    });
    expect(Object.keys(body.preferences).sort()).toEqual([...TOPICS].sort());
    expect(body.preferences.post_published).toEqual({ email_frequency: 'off', in_app: true });
    expect(body.preferences.publish_failed).toEqual({ email_frequency: 'immediate', in_app: true });
    expect(body.preferences.security_action).toEqual({ email_frequency: 'immediate', in_app: true });
    expect(body.topic_definitions.map((t: { id: string }) => t.id)).toEqual(TOPICS);
    const security = body.topic_definitions.find((t: { id: string }) => t.id === 'security_action');
    expect(security).toEqual({
      id: 'security_action',
      group: 'security',
      presentation_key: 'notifications.topics.security_action',
      transactional: true,
      critical_in_app: true,
      email_mutable: false,
      in_app_mutable: false,
      mute_applies: false,
      default_preference: { email_frequency: 'immediate', in_app: true },
      email_frequencies: ['immediate'],
    });
    const optional = body.topic_definitions.find((t: { id: string }) => t.id === 'new_message');
    expect(optional).toMatchObject({
      transactional: false,
      critical_in_app: false,
      in_app_mutable: true,
      email_frequencies: ['off', 'immediate', 'daily'],
    });
  });

  it('needs a token', async () => {
    expectProblem(await call('GET', '/notifications/preferences'), 401, 'unauthenticated');
  });
});

describe('notifications: E25 PUT /notifications/preferences', () => {
  it('replaces the map; topics left out return to their defaults', async () => {
    const user = await registerUser();
    const first = await put(user.token, {
      digest_time: '07:30',
      digest_timezone: 'Europe/Paris',
      preferences: {
        post_published: { email_frequency: 'daily', in_app: false },
        new_message: { email_frequency: 'immediate', in_app: true },
      },
    });
    expect(first.status).toBe(200);
    await expectMatchesOwnSchema(first.body, 'PreferenceSettings');
    expect(first.body).toMatchObject({ digest_time: '07:30', digest_timezone: 'Europe/Paris', digest_configured: true });
    expect(first.body.preferences.post_published).toEqual({ email_frequency: 'daily', in_app: false });
    expect(first.body.preferences.new_message).toEqual({ email_frequency: 'immediate', in_app: true });

    const second = await put(user.token, { preferences: { new_engagement: { email_frequency: 'daily', in_app: true } } });
    expect(second.status).toBe(200);
    expect(second.body.preferences.post_published).toEqual({ email_frequency: 'off', in_app: true });
    expect(second.body.preferences.new_message).toEqual({ email_frequency: 'off', in_app: true });
    expect(second.body.preferences.new_engagement).toEqual({ email_frequency: 'daily', in_app: true });
    expect(second.body).toMatchObject({ digest_time: '07:30', digest_timezone: 'Europe/Paris' });

    const read = await call('GET', '/notifications/preferences', { token: user.token });
    expect(read.body).toEqual(second.body);
  });

  it('keeps each user’s preferences to themselves', async () => {
    const alice = await registerUser();
    const bob = await registerUser();
    await put(alice.token, { digest_time: '06:15', preferences: { post_published: { email_frequency: 'daily', in_app: true } } });
    const bobs = await call('GET', '/notifications/preferences', { token: bob.token });
    expect(bobs.body).toMatchObject({ digest_time: '09:00', digest_configured: false, email_address: bob.email });
    expect(bobs.body.preferences.post_published).toEqual({ email_frequency: 'off', in_app: true });
  });

  it('refuses topic rules it cannot honour with 422, naming each location, and changes nothing', async () => {
    const user = await registerUser();
    const problem = expectProblem(
      await put(user.token, {
        preferences: {
          no_such_topic: { email_frequency: 'off', in_app: true },
          publish_failed: { email_frequency: 'off', in_app: false },
          security_action: { email_frequency: 'daily', in_app: true },
          post_published: { email_frequency: 'weekly', in_app: 'yes', extra: 1 },
        },
      }),
      422,
      'validation_failed',
    );
    expect(locations(problem)).toEqual(
      expect.arrayContaining([
        'body.preferences.no_such_topic',
        'body.preferences.publish_failed.in_app',
        'body.preferences.security_action.email_frequency',
        'body.preferences.post_published.email_frequency',
        'body.preferences.post_published.in_app',
        'body.preferences.post_published.extra',
      ]),
    );
    const read = await call('GET', '/notifications/preferences', { token: user.token });
    expect(read.body.preferences.publish_failed).toEqual({ email_frequency: 'immediate', in_app: true });
  });

  it('refuses bad digest times and time zones with 422', async () => {
    const user = await registerUser();
    for (const digest_time of ['25:00', '9:00', '09:60', '0900', '']) {
      const problem = expectProblem(await put(user.token, { digest_time, preferences: {} }), 422, 'validation_failed');
      expect(locations(problem)).toContain('body.digest_time');
    }
    for (const digest_timezone of ['Mars/Base', '+01:00', 'UTC+1', '']) {
      const problem = expectProblem(await put(user.token, { digest_timezone, preferences: {} }), 422, 'validation_failed');
      expect(locations(problem)).toContain('body.digest_timezone');
    }
    expect((await put(user.token, { digest_timezone: 'America/Argentina/Buenos_Aires', preferences: {} })).status).toBe(200);
  });

  it('refuses a missing or malformed preferences map and unknown members with 422', async () => {
    const user = await registerUser();
    expect(locations(expectProblem(await put(user.token, {}), 422))).toContain('body.preferences');
    expect(locations(expectProblem(await put(user.token, { preferences: [1] }), 422))).toContain('body.preferences');
    expect(locations(expectProblem(await put(user.token, { preferences: {}, mutes: [] }), 422))).toContain('body.mutes');
    expect(locations(expectProblem(await put(user.token, { preferences: { post_published: 'off' } }), 422))).toContain(
      'body.preferences.post_published',
    );
  });
});
