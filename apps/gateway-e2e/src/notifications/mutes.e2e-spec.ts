import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, registerUser } from '../support/api.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const mute = (token: string, body: unknown) => call('POST', '/notifications/mutes', { token, body });

describe('notifications: mutes', () => {
  it('creates an account-wide mute (201, Location) and lists it in the preferences', async () => {
    const user = await registerUser();
    const startsAt = inHours(-1);
    const endsAt = inHours(8);
    const response = await mute(user.token, { starts_at: startsAt, ends_at: endsAt });
    expect(response.status).toBe(201);
    await expectMatchesOwnSchema(response.body, 'NotificationMute');
    expect(response.body).toEqual({
      $schema: expect.any(String),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      scope: 'account',
      workspace_id: '',
      workspace_name: '',
      starts_at: startsAt,
      ends_at: endsAt,
    });
    expect(response.headers.get('location')).toBe(`/notifications/mutes/${response.body.id}`);
    const preferences = await call('GET', '/notifications/preferences', { token: user.token });
    const { $schema: _ignored, ...listed } = response.body;
    expect(preferences.body.mutes).toEqual([listed]);
  });

  it('refuses impossible periods and bad input with 422', async () => {
    const user = await registerUser();
    const backwards = expectProblem(await mute(user.token, { starts_at: inHours(5), ends_at: inHours(2) }), 422);
    expect(backwards.errors[0].location).toBe('body.ends_at');
    expectProblem(await mute(user.token, { starts_at: inHours(-5), ends_at: inHours(-2) }), 422);
    const malformed = expectProblem(await mute(user.token, { starts_at: 'tomorrow', ends_at: 42, scope: 'x' }), 422);
    expect(malformed.errors.map((e: { location: string }) => e.location)).toEqual(
      expect.arrayContaining(['body.starts_at', 'body.ends_at', 'body.scope']),
    );
    expectProblem(await mute(user.token, { workspace_id: 'nope', starts_at: inHours(0), ends_at: inHours(1) }), 422);
  });

  it('refuses a workspace the caller is not a member of with 403', async () => {
    const user = await registerUser();
    expectProblem(
      await mute(user.token, { workspace_id: randomUUID(), starts_at: inHours(0), ends_at: inHours(1) }),
      403,
      'workspace_forbidden',
    );
  });

  it('deletes a mute (204); another user’s or an unknown one is 404', async () => {
    const alice = await registerUser();
    const bob = await registerUser();
    const created = await mute(alice.token, { starts_at: inHours(0), ends_at: inHours(3) });
    expectProblem(await call('DELETE', `/notifications/mutes/${created.body.id}`, { token: bob.token }), 404, 'not_found');
    expect((await call('GET', '/notifications/preferences', { token: alice.token })).body.mutes).toHaveLength(1);
    const deleted = await call('DELETE', `/notifications/mutes/${created.body.id}`, { token: alice.token });
    expect(deleted.status).toBe(204);
    expectProblem(await call('DELETE', `/notifications/mutes/${created.body.id}`, { token: alice.token }), 404, 'not_found');
    expectProblem(await call('DELETE', '/notifications/mutes/not-a-uuid', { token: alice.token }), 404, 'not_found');
    expect((await call('GET', '/notifications/preferences', { token: alice.token })).body.mutes).toEqual([]);
  });

  it('needs a token', async () => {
    expectProblem(await mute('', { starts_at: inHours(0), ends_at: inHours(1) }), 401);
  });
});
