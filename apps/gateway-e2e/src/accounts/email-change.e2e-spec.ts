import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { testDatabase } from '../support/database.js';
import { call, eventually, expectProblem, registerUser, TestUser, uniqueEmail } from '../support/api.js';
import { mailsTo, setMailRefusing, waitForMail } from '../support/mail.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { reauthGrant } from '../support/security.js';

/** E2 and its confirmation, with the code delivered by real SMTP to the e2e mail sink. */
describe('accounts: email change', () => {
  const db = testDatabase();

  async function requestChange(user: TestUser, newEmail = uniqueEmail('new'), grant?: string) {
    return call('POST', '/auth/email-change', {
      token: user.token,
      body: { new_email: newEmail, reauth_grant: grant ?? (await reauthGrant(user)) },
    });
  }

  /** The code in the newest mail to `to` whose summary id is `after` (mails arrive in order). */
  async function codeSentTo(to: string, sentAfter: string): Promise<string> {
    const mail = await waitForMail(to, (m) => m.received_at >= sentAfter.slice(0, 19));
    const match = mail.text.match(/\b(\d{6})\b/);
    if (!match) throw new Error(`no code in mail: ${mail.text}`);
    return match[1];
  }

  const confirm = (user: TestUser, id: string, code: string) =>
    call('POST', `/auth/email-change/${id}/confirm`, { token: user.token, body: { code } });
  const pending = async (user: TestUser) => (await call('GET', '/auth/email-change', { token: user.token })).body.pending;

  it('E2 answers 201 EmailChangeSummary, mails a code to the new address and a notice to the old one', async () => {
    const user = await registerUser();
    const newEmail = uniqueEmail('new');
    const before = Date.now();
    const response = await requestChange(user, newEmail);
    expect(response.status).toBe(201);
    await expectMatchesOwnSchema(response.body, 'EmailChangeSummary');
    expect(Object.keys(response.body).sort()).toEqual(['$schema', 'expires_at', 'id', 'new_email', 'sent_at']);
    expect(response.body.new_email).toBe(newEmail);
    expect(response.headers.get('location')).toBe(`/auth/email-change/${response.body.id}`);
    const read = await call('GET', response.headers.get('location')!, { token: user.token });
    expect(read.status).toBe(200);
    await expectMatchesOwnSchema(read.body, 'EmailChangeSummary');
    expect(read.body).toEqual(response.body);
    const stranger = await registerUser();
    expectProblem(await call('GET', `/auth/email-change/${response.body.id}`, { token: stranger.token }), 404, 'not_found');
    expectProblem(await call('GET', '/auth/email-change/nope', { token: user.token }), 404, 'not_found');
    const lifetime = Date.parse(response.body.expires_at) - Date.parse(response.body.sent_at);
    expect(lifetime).toBe(15 * 60_000);
    expect(Date.parse(response.body.sent_at)).toBeGreaterThanOrEqual(before - 1_000);

    const codeMail = await waitForMail(newEmail);
    expect(codeMail.text).toMatch(/\b\d{6}\b/);
    expect(codeMail.subject).toBe('Your verification code');
    const notice = await waitForMail(user.email);
    expect(notice.subject).toBe('Your sign-in email is being changed');
    expect(notice.text).not.toMatch(/\b\d{6}\b/);

    // Only a keyed hash of the code is stored.
    const code = codeMail.text.match(/\b(\d{6})\b/)![1];
    const row = await db.query('SELECT code_hash, status FROM accounts.email_changes WHERE id = $1', [response.body.id]);
    expect(row.rows[0].status).toBe('pending');
    expect(row.rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.rows[0].code_hash).not.toContain(code);

    const shown = await call('GET', '/auth/email-change', { token: user.token });
    expect(shown.status).toBe(200);
    await expectMatchesOwnSchema(shown.body, 'PendingEmailChange');
    expect(shown.body.pending).toEqual({ ...response.body, $schema: undefined });
  });

  it('confirm changes the email (verified), answers UserProfile and signs out every other session within 5 s', async () => {
    const user = await registerUser();
    const otherSession = await call('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    expect(otherSession.status).toBe(200);
    const newEmail = uniqueEmail('new');
    const requested = await requestChange(user, newEmail);
    const code = await codeSentTo(newEmail, requested.body.sent_at);

    const confirmed = await confirm(user, requested.body.id, code);
    expect(confirmed.status).toBe(200);
    await expectMatchesOwnSchema(confirmed.body, 'UserProfile');
    expect(confirmed.body).toEqual(expect.objectContaining({ id: user.id, email: newEmail, email_verified: true }));

    await eventually(async () => {
      expectProblem(await call('GET', '/auth/me', { token: otherSession.body.access_token }), 401, 'token_revoked');
    });
    const me = await call('GET', '/auth/me', { token: user.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(newEmail);
    expect(await pending(user)).toBeNull();
    expect((await call('POST', '/auth/login', { body: { email: newEmail, password: user.password } })).status).toBe(200);
    expectProblem(await call('POST', '/auth/login', { body: { email: user.email, password: user.password } }), 401, 'invalid_credentials');
    // Confirmed once: the same code cannot be used again.
    expectProblem(await confirm(user, requested.body.id, code), 409, 'email_change_not_pending');
  });

  it('a new E2 cancels the earlier pending change', async () => {
    const user = await registerUser();
    const firstEmail = uniqueEmail('first');
    const first = await requestChange(user, firstEmail);
    const firstCode = await codeSentTo(firstEmail, first.body.sent_at);
    const second = await requestChange(user);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect((await pending(user)).id).toBe(second.body.id);
    expectProblem(await confirm(user, first.body.id, firstCode), 409, 'email_change_not_pending');
    expect((await call('GET', '/auth/me', { token: user.token })).body.email).toBe(user.email);
  });

  it('409 email_unavailable for the current address or a taken one; the grant stays usable', async () => {
    const user = await registerUser();
    const other = await registerUser();
    const grant = await reauthGrant(user);
    expectProblem(await requestChange(user, user.email.toUpperCase(), grant), 409, 'email_unavailable');
    expectProblem(await requestChange(user, other.email, grant), 409, 'email_unavailable');
    expect(await pending(user)).toBeNull();
    expect(await mailsTo(other.email)).toEqual([]);
    // Refused requests do not consume the grant (documented decision).
    expect((await requestChange(user, uniqueEmail('new'), grant)).status).toBe(201);
  });

  it('503 email_unavailable_delivery when SMTP refuses: nothing half-changed, grant not consumed', async () => {
    const user = await registerUser();
    const earlier = await requestChange(user);
    expect(earlier.status).toBe(201);
    const grant = await reauthGrant(user);
    const refusedEmail = uniqueEmail('refused');
    await setMailRefusing(true);
    try {
      const refused = await requestChange(user, refusedEmail, grant);
      expectProblem(refused, 503, 'email_unavailable_delivery');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await setMailRefusing(false);
    }
    const rows = await db.query('SELECT status FROM accounts.email_changes WHERE user_id = $1 ORDER BY sent_at', [user.id]);
    expect(rows.rows).toEqual([{ status: 'pending' }]);
    expect((await pending(user)).id).toBe(earlier.body.id);
    expect(await mailsTo(refusedEmail)).toEqual([]);
    // Once mail flows again the same grant goes through.
    const retried = await requestChange(user, refusedEmail, grant);
    expect(retried.status).toBe(201);
    await waitForMail(refusedEmail);
  });

  it('the 6th accepted E2 in 15 minutes is 429 with Retry-After; refused ones do not count; 409 is checked first', async () => {
    const user = await registerUser();
    expectProblem(await requestChange(user, user.email), 409, 'email_unavailable');
    for (let i = 0; i < 5; i++) expect((await requestChange(user)).status).toBe(201);
    const limited = await requestChange(user);
    expectProblem(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expectProblem(await requestChange(user, user.email), 409, 'email_unavailable');
  });

  it('locks the code after 5 wrong attempts (422 invalid_code, then 409 code_locked even for the right code)', async () => {
    const user = await registerUser();
    const newEmail = uniqueEmail('new');
    const requested = await requestChange(user, newEmail);
    const code = await codeSentTo(newEmail, requested.body.sent_at);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let left = 4; left >= 0; left--) {
      const problem = expectProblem(await confirm(user, requested.body.id, wrong), 422, 'invalid_code');
      expect(problem.attempts_remaining).toBe(left);
      expect(problem.errors).toEqual([{ location: 'body.code', message: 'is not the code that was sent' }]);
    }
    expectProblem(await confirm(user, requested.body.id, code), 409, 'code_locked');
    expect((await call('GET', '/auth/me', { token: user.token })).body.email).toBe(user.email);
    expect(await pending(user)).toBeNull();
  });

  it('an expired code is 409 email_change_expired and changes nothing', async () => {
    const user = await registerUser();
    const newEmail = uniqueEmail('new');
    const requested = await requestChange(user, newEmail);
    const code = await codeSentTo(newEmail, requested.body.sent_at);
    await db.query(`UPDATE accounts.email_changes SET expires_at = now() - interval '1 second' WHERE id = $1`, [requested.body.id]);
    expect(await pending(user)).toBeNull();
    expectProblem(await confirm(user, requested.body.id, code), 409, 'email_change_expired');
    expect((await call('GET', '/auth/me', { token: user.token })).body.email).toBe(user.email);
  });

  it("refuses a missing (422), used, unknown or another user's grant (401 reauth_required)", async () => {
    const user = await registerUser();
    const other = await registerUser();
    const missing = expectProblem(
      await call('POST', '/auth/email-change', { token: user.token, body: { new_email: uniqueEmail() } }),
      422,
      'validation_failed',
    );
    expect(missing.errors).toEqual([{ location: 'body.reauth_grant', message: 'is required' }]);
    const grant = await reauthGrant(user);
    expect((await requestChange(user, uniqueEmail(), grant)).status).toBe(201);
    expectProblem(await requestChange(user, uniqueEmail(), grant), 401, 'reauth_required');
    expectProblem(await requestChange(user, uniqueEmail(), 'rg_not-a-grant'), 401, 'reauth_required');
    expectProblem(await requestChange(user, uniqueEmail(), await reauthGrant(other)), 401, 'reauth_required');
  });

  it('refuses bad bodies (422 naming each location)', async () => {
    const user = await registerUser();
    const grant = await reauthGrant(user);
    const notEmail = expectProblem(
      await call('POST', '/auth/email-change', { token: user.token, body: { new_email: 'nope', reauth_grant: grant } }),
      422,
    );
    expect(notEmail.errors).toEqual([{ location: 'body.new_email', message: 'must be an email address', value: 'nope' }]);
    const wrongTypes = expectProblem(
      await call('POST', '/auth/email-change', { token: user.token, body: { new_email: 5, reauth_grant: [] } }),
      422,
    );
    expect([...new Set(wrongTypes.errors.map((e: { location: string }) => e.location))].sort()).toEqual([
      'body.new_email',
      'body.reauth_grant',
    ]);
    const extra = expectProblem(
      await call('POST', '/auth/email-change', {
        token: user.token,
        body: { new_email: uniqueEmail(), reauth_grant: grant, notify: false },
      }),
      422,
    );
    expect(extra.errors).toEqual([{ location: 'body.notify', message: 'unexpected property' }]);
    const requested = await requestChange(user, uniqueEmail(), grant);
    expect(requested.status).toBe(201);
    for (const code of ['12345', '1234567', 'abcdef', 123456]) {
      const problem = expectProblem(
        await call('POST', `/auth/email-change/${requested.body.id}/confirm`, { token: user.token, body: { code } }),
        422,
        'validation_failed',
      );
      expect(problem.errors[0].location).toBe('body.code');
    }
    const noCode = expectProblem(
      await call('POST', `/auth/email-change/${requested.body.id}/confirm`, { token: user.token, body: {} }),
      422,
    );
    expect(noCode.errors).toEqual([{ location: 'body.code', message: 'is required' }]);
    // Malformed bodies never cost an attempt.
    const row = await db.query('SELECT failed_attempts FROM accounts.email_changes WHERE id = $1', [requested.body.id]);
    expect(row.rows[0].failed_attempts).toBe(0);
  });

  it("another user's change id is 404 for confirm and cancel, and changes nothing", async () => {
    const owner = await registerUser();
    const intruder = await registerUser();
    const newEmail = uniqueEmail('new');
    const requested = await requestChange(owner, newEmail);
    const code = await codeSentTo(newEmail, requested.body.sent_at);
    expectProblem(await confirm(intruder, requested.body.id, code), 404, 'not_found');
    expectProblem(await call('DELETE', `/auth/email-change/${requested.body.id}`, { token: intruder.token }), 404, 'not_found');
    expectProblem(await confirm(owner, randomUUID(), code), 404, 'not_found');
    expectProblem(await call('DELETE', '/auth/email-change/not-an-id', { token: owner.token }), 404, 'not_found');
    expect(await pending(intruder)).toBeNull();
    expect((await pending(owner)).id).toBe(requested.body.id);
    expect((await call('GET', '/auth/me', { token: intruder.token })).body.email).toBe(intruder.email);
    expect((await confirm(owner, requested.body.id, code)).status).toBe(200);
  });

  it('DELETE cancels the pending change (204); its code then no longer works; a second DELETE is 409', async () => {
    const user = await registerUser();
    const newEmail = uniqueEmail('new');
    const requested = await requestChange(user, newEmail);
    const code = await codeSentTo(newEmail, requested.body.sent_at);
    const cancelled = await call('DELETE', `/auth/email-change/${requested.body.id}`, { token: user.token });
    expect(cancelled.status).toBe(204);
    expect(cancelled.body).toBe('');
    const shown = await call('GET', '/auth/email-change', { token: user.token });
    expect(shown.body).toEqual({ $schema: expect.stringMatching(/PendingEmailChange\.json$/), pending: null });
    await expectMatchesOwnSchema(shown.body, 'PendingEmailChange');
    expectProblem(await confirm(user, requested.body.id, code), 409, 'email_change_not_pending');
    expectProblem(await call('DELETE', `/auth/email-change/${requested.body.id}`, { token: user.token }), 409, 'email_change_not_pending');
  });
});
