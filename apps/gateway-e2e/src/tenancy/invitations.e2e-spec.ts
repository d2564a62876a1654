import { beforeAll, describe, expect, it } from '@jest/globals';
import { testDatabase } from '../support/database.js';
import { baseUrl, call, expectProblem, registerUser, TestUser } from '../support/api.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { setMailRefusing, waitForMail } from '../support/mail.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { reauthGrant } from '../support/security.js';
import { createTenant, joinWorkspace, secretOf, Tenant } from '../support/tenancy.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('tenancy: invitations (and E11 resend)', () => {
  const db = testDatabase();
  let tenant: Tenant;
  const invitations = () => `/workspaces/${tenant.workspaceId}/invitations`;
  const invite = (email: string, role = 'editor', token = tenant.owner.token) =>
    call('POST', invitations(), { token, body: { email, role } });
  const accept = (user: TestUser, secret: string) =>
    call('POST', '/workspace-invitations/accept', { token: user.token, body: { token: secret } });
  /** Time travel for the 60-second cooldown and the 7-day expiry, straight in the accounts schema. */
  const age = (invitationId: string, column: 'last_sent_at' | 'expires_at', secondsAgo: number) =>
    db.query(`UPDATE accounts.workspace_invitations SET ${column} = now() - make_interval(secs => $2) WHERE id = $1`, [
      invitationId,
      secondsAgo,
    ]);

  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('creates an invitation (201, Location), emails its link, shows accept_url once; the list has no secrets', async () => {
    const invitee = await registerUser();
    const created = await invite(invitee.email, 'viewer');
    expect(created.status).toBe(201);
    await expectMatchesOwnSchema(created.body, 'WorkspaceInvitation');
    expect(created.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/WorkspaceInvitation\.json$/),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      workspace_id: tenant.workspaceId,
      email: invitee.email,
      role: 'viewer',
      status: 'sent',
      accept_url: expect.stringMatching(new RegExp(`^${baseUrl()}/invite\\?token=inv_[A-Za-z0-9_-]{43}$`)),
      invited_by_user_id: tenant.owner.id,
      created_at: expect.stringMatching(ISO),
      expires_at: expect.stringMatching(ISO),
      last_sent_at: created.body.created_at,
      email_delivery_status: 'sent',
      email_delivery_updated_at: expect.stringMatching(ISO),
      accepted_at: '',
      accepted_by_user_id: '',
      revoked_at: '',
    });
    const sevenDays = Date.parse(created.body.expires_at) - Date.parse(created.body.created_at);
    expect(sevenDays).toBe(7 * 24 * 3_600_000);
    expect(created.headers.get('location')).toBe(`${invitations()}/${created.body.id}`);
    const mail = await waitForMail(invitee.email);
    expect(mail.subject).toContain('Main');
    expect(mail.text).toContain(created.body.accept_url);
    const one = await call('GET', created.headers.get('location')!, { token: tenant.owner.token });
    expect(one.status).toBe(200);
    await expectMatchesOwnSchema(one.body, 'WorkspaceInvitation');
    expect(one.body).toEqual({ ...created.body, accept_url: '' });

    const listed = await call('GET', invitations(), { token: tenant.owner.token });
    expect(listed.status).toBe(200);
    await expectMatchesOwnSchema(listed.body, 'WorkspaceInvitationList');
    const mine = listed.body.invitations.find((i: { id: string }) => i.id === created.body.id);
    const { $schema: _s, ...item } = created.body;
    expect(mine).toEqual({ ...item, accept_url: '' });
    expect(JSON.stringify(listed.body)).not.toContain(secretOf(created.body.accept_url));
  });

  it('refuses members, open invitations (409) and bad input (422)', async () => {
    expectProblem(await invite(tenant.owner.email), 409, 'already_member');
    const email = `twice-${Date.now()}@example.com`;
    expect((await invite(email)).status).toBe(201);
    expectProblem(await invite(email.toUpperCase()), 409, 'invitation_pending');
    const bad = expectProblem(
      await call('POST', invitations(), { token: tenant.owner.token, body: { email: 'nope', role: 'owner' } }),
      422,
    );
    expect(bad.errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.email', 'body.role']);
    expectProblem(await call('POST', '/workspace-invitations/accept', { token: tenant.owner.token, body: {} }), 422);
  });

  it('allows at most 200 open invitations per workspace (409 too_many_invitations)', async () => {
    const crowded = await createTenant();
    await db.query(
      `INSERT INTO accounts.workspace_invitations (id, workspace_id, email, role, secret_hash, invited_by_user_id, created_at,
         expires_at, last_sent_at, email_delivery_status, email_delivery_updated_at)
       SELECT gen_random_uuid(), $1, 'bulk-' || n || '@example.com', 'viewer', md5(random()::text || n), $2, now(),
         now() + interval '7 days', now(), 'sent', now()
         FROM generate_series(1, 200) AS n`,
      [crowded.workspaceId, crowded.owner.id],
    );
    expectProblem(
      await call('POST', `/workspaces/${crowded.workspaceId}/invitations`, {
        token: crowded.owner.token,
        body: { email: 'one-more@example.com', role: 'viewer' },
      }),
      409,
      'too_many_invitations',
    );
    expect(
      (await call('GET', `/workspaces/${crowded.workspaceId}/invitations`, { token: crowded.owner.token })).body.invitations,
    ).toHaveLength(200);
  });

  it('is accepted once, by the invited address only; the user joins the workspace and its organization', async () => {
    const invitee = await registerUser();
    const someoneElse = await registerUser();
    const created = await invite(invitee.email, 'editor');
    const secret = secretOf(created.body.accept_url);
    expectProblem(await accept(someoneElse, secret), 409, 'invitation_not_acceptable');
    expectProblem(await accept(invitee, `${secret}x`), 409, 'invitation_not_acceptable');

    const accepted = await accept(invitee, secret);
    expect(accepted.status).toBe(200);
    await expectMatchesOwnSchema(accepted.body, 'InvitationAcceptance');
    expect(accepted.body).toEqual({ $schema: expect.any(String), workspace_id: tenant.workspaceId, role: 'editor', accepted: true });
    expectProblem(await accept(invitee, secret), 409, 'invitation_not_acceptable');

    expect((await call('GET', `/workspaces/${tenant.workspaceId}`, { token: invitee.token })).body.role).toBe('editor');
    const organization = await call('GET', `/organizations/${tenant.organizationId}`, { token: invitee.token });
    expect(organization.body.role).toBe('member');

    const listed = await call('GET', invitations(), { token: tenant.owner.token });
    const item = listed.body.invitations.find((i: { id: string }) => i.id === created.body.id);
    expect(item).toEqual(
      expect.objectContaining({ status: 'accepted', accepted_by_user_id: invitee.id, accepted_at: expect.stringMatching(ISO) }),
    );
    expectProblem(
      await call('DELETE', `${invitations()}/${created.body.id}`, { token: tenant.owner.token }),
      409,
      'invitation_not_revocable',
    );
    expectProblem(
      await call('POST', `${invitations()}/${created.body.id}/resend`, { token: tenant.owner.token }),
      409,
      'invitation_not_resendable',
    );
  });

  it('refuses an invitation to someone who became a member meanwhile (409), keeping their role', async () => {
    // The invitation goes to an address; a member then takes that address through an email change.
    const member = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
    const address = `later-${Date.now()}@example.com`;
    const created = await invite(address, 'admin');
    const change = await call('POST', '/auth/email-change', {
      token: member.token,
      body: { new_email: address, reauth_grant: await reauthGrant(member) },
    });
    expect(change.status).toBe(201);
    const code = /\b(\d{6})\b/.exec((await waitForMail(address, (m) => /\b\d{6}\b/.test(m.text))).text)![1];
    expect((await call('POST', `/auth/email-change/${change.body.id}/confirm`, { token: member.token, body: { code } })).status).toBe(200);

    expectProblem(await accept(member, secretOf(created.body.accept_url)), 409, 'invitation_not_acceptable');
    expect((await call('GET', `/workspaces/${tenant.workspaceId}`, { token: member.token })).body.role).toBe('viewer');
  });

  it('E11: waits 60 s after the last send (429), then rotates the secret and extends the expiry', async () => {
    const invitee = await registerUser();
    const created = await invite(invitee.email);
    const resend = () => call('POST', `${invitations()}/${created.body.id}/resend`, { token: tenant.owner.token });

    const tooSoon = expectProblem(await resend(), 429, 'rate_limited');
    expect(tooSoon).toBeDefined();
    const retryAfter = Number((await resend()).headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    await age(created.body.id, 'last_sent_at', 120);
    await age(created.body.id, 'expires_at', 10);
    const expired = await call('GET', invitations(), { token: tenant.owner.token });
    expect(expired.body.invitations.find((i: { id: string }) => i.id === created.body.id).status).toBe('expired');
    expectProblem(await accept(invitee, secretOf(created.body.accept_url)), 409, 'invitation_not_acceptable');

    const resent = await resend();
    expect(resent.status).toBe(200);
    await expectMatchesOwnSchema(resent.body, 'WorkspaceInvitation');
    expect(resent.body.id).toBe(created.body.id);
    expect(resent.body.accept_url).not.toBe(created.body.accept_url);
    expect(resent.body.status).not.toBe('expired');
    expect(Date.parse(resent.body.last_sent_at)).toBeGreaterThan(Date.parse(created.body.last_sent_at));
    expect(Date.parse(resent.body.expires_at) - Date.parse(resent.body.last_sent_at)).toBe(7 * 24 * 3_600_000);
    expectProblem(await resend(), 429);

    // The old link died with the rotation; the new one works.
    expectProblem(await accept(invitee, secretOf(created.body.accept_url)), 409, 'invitation_not_acceptable');
    expect((await accept(invitee, secretOf(resent.body.accept_url))).status).toBe(200);
  });

  it('records what SMTP answered: a refused mail leaves the invitation delivery_failed, and E11 sends it again', async () => {
    const email = `refused-${Date.now()}@example.com`;
    let created;
    try {
      await setMailRefusing(true);
      created = await invite(email);
    } finally {
      await setMailRefusing(false);
    }
    expect(created.status).toBe(201);
    expect(created.body).toEqual(expect.objectContaining({ status: 'delivery_failed', email_delivery_status: 'failed' }));
    await age(created.body.id, 'last_sent_at', 120);
    const resent = await call('POST', `${invitations()}/${created.body.id}/resend`, { token: tenant.owner.token });
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual(expect.objectContaining({ status: 'sent', email_delivery_status: 'sent' }));
    expect((await waitForMail(email)).text).toContain(resent.body.accept_url);
  });

  it('revokes (204, twice is fine); a revoked invitation cannot be accepted or resent (409 before 429)', async () => {
    const invitee = await registerUser();
    const created = await invite(invitee.email);
    const url = `${invitations()}/${created.body.id}`;
    expect((await call('DELETE', url, { token: tenant.owner.token })).status).toBe(204);
    expect((await call('DELETE', url, { token: tenant.owner.token })).status).toBe(204);
    expectProblem(await accept(invitee, secretOf(created.body.accept_url)), 409, 'invitation_not_acceptable');
    expectProblem(await call('POST', `${url}/resend`, { token: tenant.owner.token }), 409, 'invitation_not_resendable');
    const listed = await call('GET', invitations(), { token: tenant.owner.token });
    expect(listed.body.invitations.find((i: { id: string }) => i.id === created.body.id)).toEqual(
      expect.objectContaining({ status: 'revoked', revoked_at: expect.stringMatching(ISO) }),
    );
    // A new invitation to the same address is possible once the old one is revoked.
    expect((await invite(invitee.email)).status).toBe(201);
    expectProblem(await call('DELETE', `${invitations()}/not-a-uuid`, { token: tenant.owner.token }), 404);
  });

  it('holds under concurrency: ten racing resends send once, ten racing accepts join once', async () => {
    const invitee = await registerUser();
    const created = await invite(invitee.email);
    await age(created.body.id, 'last_sent_at', 120);
    const resends = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `${invitations()}/${created.body.id}/resend`, { token: tenant.owner.token })),
    );
    expect(resends.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(429)]);
    const winner = resends.find((r) => r.status === 200)!;
    const accepts = await Promise.all(Array.from({ length: 10 }, () => accept(invitee, secretOf(winner.body.accept_url))));
    expect(accepts.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    const members = await call('GET', `/workspaces/${tenant.workspaceId}/members`, { token: tenant.owner.token });
    expect(members.body.members.filter((m: { user_id: string }) => m.user_id === invitee.id)).toHaveLength(1);
  });

  it('hides invitations from another tenant (404) and nothing changes', async () => {
    const created = await invite(`isolated-${Date.now()}@example.com`);
    const other = await createTenant();
    const url = `${invitations()}/${created.body.id}`;
    await age(created.body.id, 'last_sent_at', 120);
    await expectTenantIsolation({
      url: invitations(),
      ownerToken: tenant.owner.token,
      intruderToken: other.owner.token,
      attempts: [
        { method: 'GET', path: url },
        { method: 'DELETE', path: url },
        { method: 'POST', path: `${url}/resend` },
        // Another workspace's invitation under the intruder's own workspace path is just as unknown.
        { method: 'DELETE', path: `/workspaces/${other.workspaceId}/invitations/${created.body.id}` },
        { method: 'POST', path: `/workspaces/${other.workspaceId}/invitations/${created.body.id}/resend` },
      ],
    });
  });
});
