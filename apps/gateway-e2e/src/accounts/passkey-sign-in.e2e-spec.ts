import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { call, expectProblem } from '../support/api.js';

/**
 * Signing in with a passkey, as the API answers it without an authenticator: the options, and every refusal. The
 * whole ceremony with a real authenticator runs in Chromium (web/security.e2e-spec.ts).
 */
describe('accounts: passkey sign-in', () => {
  it('opens a ceremony for any passkey of the relying party, naming no account', async () => {
    const begun = await call('POST', '/auth/passkeys/sign-in/begin');
    expect(begun.status).toBe(200);
    expect(begun.body.challenge_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(begun.body.options).toMatchObject({ rpId: 'localhost', challenge: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/) });
    expect(begun.body.options.allowCredentials ?? []).toEqual([]);
  });

  it('refuses an unknown challenge, a credential that is not an assertion, and a passkey that is not ours', async () => {
    const assertion = (id: string) => ({
      id,
      rawId: id,
      type: 'public-key',
      response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
      clientExtensionResults: {},
    });
    const unknown = await call('POST', '/auth/passkeys/sign-in/finish', {
      body: { challenge_id: randomUUID(), credential: assertion('x') },
    });
    expectProblem(unknown, 401, 'passkey_challenge_invalid');

    const malformed = await call('POST', '/auth/passkeys/sign-in/begin');
    const notAssertion = await call('POST', '/auth/passkeys/sign-in/finish', {
      body: { challenge_id: malformed.body.challenge_id, credential: { id: 'x' } },
    });
    expectProblem(notAssertion, 422);

    const begun = await call('POST', '/auth/passkeys/sign-in/begin');
    const stranger = await call('POST', '/auth/passkeys/sign-in/finish', {
      body: { challenge_id: begun.body.challenge_id, credential: assertion('bm90LW91cnM') },
    });
    expectProblem(stranger, 401, 'invalid_credentials');
    // The challenge was spent by the refused attempt.
    const again = await call('POST', '/auth/passkeys/sign-in/finish', {
      body: { challenge_id: begun.body.challenge_id, credential: assertion('bm90LW91cnM') },
    });
    expectProblem(again, 401, 'passkey_challenge_invalid');
  });
});
