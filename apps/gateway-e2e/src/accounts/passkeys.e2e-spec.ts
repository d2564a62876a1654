import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { baseUrl, call, expectProblem, registerUser, TestUser } from '../support/api.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { reauthGrant } from '../support/security.js';
import { CreationOptions, softwareAttestation } from '../support/webauthn.js';

/** Passkey registration with real WebAuthn verification, against a software authenticator. */
describe('accounts: passkeys', () => {
  let db: pg.Client;
  // The stack's relying party is `localhost` (global setup: WebAuthn takes no IP address), at the stack's port.
  const origin = () => {
    const url = new URL(baseUrl());
    url.hostname = 'localhost';
    return url.origin;
  };

  beforeAll(async () => {
    db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    await db.end();
  });

  async function begin(user: TestUser): Promise<{ challenge_id: string; options: CreationOptions & Record<string, any> }> {
    const response = await call('POST', '/auth/security/passkeys/begin', {
      token: user.token,
      body: { reauth_grant: await reauthGrant(user) },
    });
    expect(response.status).toBe(200);
    return response.body;
  }

  const finish = (user: TestUser, body: unknown) => call('POST', '/auth/security/passkeys/finish', { token: user.token, body });

  it('begin answers PasskeyRegistrationOptions for this relying party and user', async () => {
    const user = await registerUser();
    const response = await call('POST', '/auth/security/passkeys/begin', {
      token: user.token,
      body: { reauth_grant: await reauthGrant(user) },
    });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'PasskeyRegistrationOptions');
    expect(response.body.challenge_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const options = response.body.options;
    expect(options.rp).toEqual({ id: new URL(origin()).hostname, name: expect.any(String) });
    expect(options.user).toEqual({ id: expect.any(String), name: user.email, displayName: expect.any(String) });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(options.attestation).toBe('none');
    expect(options.pubKeyCredParams).toContainEqual({ type: 'public-key', alg: -7 });
    const row = await db.query('SELECT challenge_hash FROM accounts.passkey_challenges WHERE id = $1', [response.body.challenge_id]);
    expect(row.rows[0].challenge_hash).not.toContain(options.challenge);
  });

  it('E1 verifies a real attestation and answers SecurityStatusOutputBody with the passkey', async () => {
    const user = await registerUser();
    const { challenge_id, options } = await begin(user);
    const response = await finish(user, { challenge_id, credential: softwareAttestation(options, origin()), name: ' Laptop ' });
    expect(response.status).toBe(200);
    await expectMatchesOwnSchema(response.body, 'SecurityStatusOutputBody');
    expect(response.body.methods).toEqual(['password', 'passkey']);
    expect(response.body.totp_enabled).toBe(false);
    expect(response.body.user.id).toBe(user.id);
    expect(response.body.passkeys).toEqual([
      { id: expect.any(String), name: 'Laptop', created_at: expect.stringMatching(/\.\d{3}Z$/), last_used_at: null },
    ]);
    const security = await call('GET', '/auth/security', { token: user.token });
    expect(security.status).toBe(200);
    expect({ ...security.body, $schema: undefined }).toEqual({ ...response.body, $schema: undefined });
  });

  it('a blank name becomes "Passkey"', async () => {
    const user = await registerUser();
    const { challenge_id, options } = await begin(user);
    const response = await finish(user, { challenge_id, credential: softwareAttestation(options, origin()), name: '   ' });
    expect(response.status).toBe(200);
    expect(response.body.passkeys.map((p: { name: string }) => p.name)).toEqual(['Passkey']);
  });

  it(
    'a credential that fails verification is 422 (tampered, ' + 'wrong origin, wrong challenge, not a credential); nothing is stored',
    async () => {
      const user = await registerUser();
      const { challenge_id, options } = await begin(user);
      const attempts: unknown[] = [
        softwareAttestation(options, origin(), { corruptRpIdHash: true }),
        softwareAttestation(options, origin(), { origin: 'https://evil.example' }),
        softwareAttestation(options, origin(), { challenge: Buffer.from('another challenge').toString('base64url') }),
        softwareAttestation(options, origin(), { type: 'webauthn.get' }),
        { ...softwareAttestation(options, origin()), response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' } },
        'not a credential',
        {},
      ];
      for (const credential of attempts) {
        const problem = expectProblem(await finish(user, { challenge_id, credential, name: 'x' }), 422, 'validation_failed');
        expect(problem.errors[0].location).toBe('body.credential');
      }
      const security = await call('GET', '/auth/security', { token: user.token });
      expect(security.body.methods).toEqual(['password']);
      expect(security.body.passkeys).toEqual([]);
      // A failed verification does not use the challenge up: the genuine credential still registers.
      expect((await finish(user, { challenge_id, credential: softwareAttestation(options, origin()), name: 'x' })).status).toBe(200);
    },
  );

  it("refuses a reused, unknown, expired, another user's or another session's challenge (401)", async () => {
    const user = await registerUser();
    const other = await registerUser();
    const { challenge_id, options } = await begin(user);
    const credential = () => softwareAttestation(options, origin());
    expectProblem(await finish(other, { challenge_id, credential: credential(), name: 'x' }), 401, 'passkey_challenge_invalid');
    const login = await call('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    expectProblem(
      await finish({ ...user, token: login.body.access_token }, { challenge_id, credential: credential(), name: 'x' }),
      401,
      'passkey_challenge_invalid',
    );
    expect((await finish(user, { challenge_id, credential: credential(), name: 'x' })).status).toBe(200);
    expectProblem(await finish(user, { challenge_id, credential: credential(), name: 'x' }), 401, 'passkey_challenge_invalid');
    expectProblem(
      await finish(user, { challenge_id: randomUUID(), credential: credential(), name: 'x' }),
      401,
      'passkey_challenge_invalid',
    );
    expectProblem(await finish(user, { challenge_id: 'not-an-id', credential: credential(), name: 'x' }), 401, 'passkey_challenge_invalid');

    const expiring = await begin(user);
    await db.query(`UPDATE accounts.passkey_challenges SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expiring.challenge_id,
    ]);
    expectProblem(
      await finish(user, { challenge_id: expiring.challenge_id, credential: softwareAttestation(expiring.options, origin()), name: 'x' }),
      401,
      'passkey_challenge_invalid',
    );
    // The other user's attempts changed nothing for them.
    expect((await call('GET', '/auth/security', { token: other.token })).body.passkeys).toEqual([]);
  });

  it('refuses bad bodies (422 naming each location)', async () => {
    const user = await registerUser();
    const missing = expectProblem(await finish(user, {}), 422, 'validation_failed');
    expect(missing.errors.map((e: { location: string }) => e.location).sort()).toEqual([
      'body.challenge_id',
      'body.credential',
      'body.name',
    ]);
    const { challenge_id } = await begin(user);
    const wrongTypes = expectProblem(await finish(user, { challenge_id: 7, credential: {}, name: false }), 422);
    expect([...new Set(wrongTypes.errors.map((e: { location: string }) => e.location))].sort()).toEqual(['body.challenge_id', 'body.name']);
    const nullCredential = expectProblem(await finish(user, { challenge_id, credential: null, name: 'x' }), 422);
    expect(nullCredential.errors).toEqual([{ location: 'body.credential', message: 'must not be null', value: null }]);
    const extra = expectProblem(await finish(user, { challenge_id, credential: {}, name: 'x', device: 'phone' }), 422);
    expect(extra.errors).toEqual([{ location: 'body.device', message: 'unexpected property' }]);
    const tooLong = expectProblem(await finish(user, { challenge_id, credential: {}, name: 'n'.repeat(121) }), 422);
    expect(tooLong.errors[0].location).toBe('body.name');
  });

  it("deletes a passkey (204); another user's or an unknown id is 404 and changes nothing", async () => {
    const user = await registerUser();
    const other = await registerUser();
    const { challenge_id, options } = await begin(user);
    const registered = await finish(user, { challenge_id, credential: softwareAttestation(options, origin()), name: 'Phone' });
    const passkeyId = registered.body.passkeys[0].id as string;

    expectProblem(await call('DELETE', `/auth/security/passkeys/${passkeyId}`, { token: other.token }), 404, 'not_found');
    expectProblem(await call('DELETE', `/auth/security/passkeys/${randomUUID()}`, { token: user.token }), 404, 'not_found');
    expectProblem(await call('DELETE', '/auth/security/passkeys/not-an-id', { token: user.token }), 404, 'not_found');
    expect((await call('GET', '/auth/security', { token: user.token })).body.passkeys).toHaveLength(1);

    const deleted = await call('DELETE', `/auth/security/passkeys/${passkeyId}`, { token: user.token });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    const security = await call('GET', '/auth/security', { token: user.token });
    expect(security.body.methods).toEqual(['password']);
    expect(security.body.passkeys).toEqual([]);
    expectProblem(await call('DELETE', `/auth/security/passkeys/${passkeyId}`, { token: user.token }), 404, 'not_found');
  });
});
