import { describe, expect, it } from '@jest/globals';
import { call, expectProblem, registerUser } from '../support/api.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';

describe('accounts: profile and security status', () => {
  it('GET /auth/me answers the caller’s own UserProfile', async () => {
    const alice = await registerUser({ display_name: 'Alice' });
    const bob = await registerUser({ display_name: 'Bob' });
    const me = await call('GET', '/auth/me', { token: alice.token });
    expect(me.status).toBe(200);
    await expectMatchesOwnSchema(me.body, 'UserProfile');
    expect(me.body).toMatchObject({ id: alice.id, email: alice.email, display_name: 'Alice' });
    const other = await call('GET', '/auth/me', { token: bob.token });
    expect(other.body.id).toBe(bob.id);
  });

  it('PATCH /auth/me changes only what is sent', async () => {
    const user = await registerUser();
    const username = `pat_${Date.now()}`;
    const response = await call('PATCH', '/auth/me', {
      token: user.token,
      body: {
        display_name: 'Patched',
        username,
        avatar_url: 'https://cdn.example.com/a.png',
        composer_experience: 'unified',
        public_profile_enabled: true,
        public_profile_visible_fields: ['display_name', 'avatar_url'],
      },
    });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'UserProfile');
    expect(response.body).toMatchObject({
      display_name: 'Patched',
      username,
      avatar_url: 'https://cdn.example.com/a.png',
      composer_experience: 'unified',
      public_profile_enabled: true,
      public_profile_visible_fields: ['display_name', 'avatar_url'],
    });
    const cleared = await call('PATCH', '/auth/me', { token: user.token, body: { avatar_url: '' } });
    expect(cleared.body).toMatchObject({ avatar_url: '', display_name: 'Patched', username });
  });

  it('refuses invalid changes with 422 and a taken username with 409', async () => {
    const user = await registerUser();
    const problem = expectProblem(
      await call('PATCH', '/auth/me', {
        token: user.token,
        body: { composer_experience: 'fancy', avatar_url: 'javascript:alert(1)', public_profile_visible_fields: ['email'], is_admin: true },
      }),
      422,
      'validation_failed',
    );
    expect(problem.errors.map((e: { location: string }) => e.location)).toEqual(
      expect.arrayContaining(['body.composer_experience', 'body.avatar_url', 'body.public_profile_visible_fields', 'body.is_admin']),
    );
    const owner = await registerUser({ username: `own_${Date.now()}` });
    const taken = (await call('GET', '/auth/me', { token: owner.token })).body.username;
    expectProblem(await call('PATCH', '/auth/me', { token: user.token, body: { username: taken } }), 409, 'username_taken');
    expect((await call('GET', '/auth/me', { token: user.token })).body.is_admin).toBe(false);
  });

  it('refuses null and NUL characters with 422 instead of storing them', async () => {
    const user = await registerUser({ display_name: 'Kept' });
    for (const member of [
      'display_name',
      'username',
      'avatar_url',
      'composer_experience',
      'public_profile_enabled',
      'public_profile_visible_fields',
    ]) {
      const problem = expectProblem(
        await call('PATCH', '/auth/me', { token: user.token, body: { [member]: null } }),
        422,
        'validation_failed',
      );
      expect(problem.errors).toEqual([{ location: `body.${member}`, message: 'must not be null', value: null }]);
    }
    const nul = expectProblem(await call('PATCH', '/auth/me', { token: user.token, body: { display_name: 'a\u0000b' } }), 422);
    expect(nul.errors[0].location).toBe('body.display_name');
    expect((await call('GET', '/auth/me', { token: user.token })).body.display_name).toBe('Kept');
  });

  it('GET /auth/security answers SecurityStatusOutputBody', async () => {
    const user = await registerUser();
    const response = await call('GET', '/auth/security', { token: user.token });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'SecurityStatusOutputBody');
    expect(response.body).toMatchObject({ methods: ['password'], passkeys: [], totp_enabled: false });
    expect(response.body.user.id).toBe(user.id);
    expect(response.body.user).not.toHaveProperty('$schema');
  });

  it('needs a token', async () => {
    expectProblem(await call('PATCH', '/auth/me', { body: { display_name: 'x' } }), 401);
    expectProblem(await call('GET', '/auth/security'), 401);
  });
});
