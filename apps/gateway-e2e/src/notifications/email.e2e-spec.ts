import { describe, expect, it } from '@jest/globals';
import { RENDITION_FAILED_SUBJECT, RENDITION_PUBLISHED_SUBJECT } from '@social/contracts';
import { randomUUID } from 'node:crypto';
import { call, registerUser, TestUser, uniqueEmail } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { mailsTo, refuseAddress, waitForMail } from '../support/mail.js';
import { inbox, pause, publishDurableEvent, setTopic, startNotificationsReplica, waitForNotification } from '../support/notifications.js';
import { reauthGrant } from '../support/security.js';
import { createTenant, Tenant } from '../support/tenancy.js';

/** A rendition event of the workspace, as publishing's outbox would publish it; `marker` ends up in the item's body. */
function renditionEvent(workspaceId: string, marker: string, extra: Record<string, unknown> = {}) {
  return {
    workspace_id: workspaceId,
    publication_id: randomUUID(),
    rendition_id: randomUUID(),
    social_account_id: randomUUID(),
    platform: 'sandbox',
    attempt: 1,
    occurred_at: new Date().toISOString(),
    external_id: `post-${marker}`,
    external_url: `https://sandbox.invalid/${marker}`,
    error_code: 'sandbox_rejected',
    error_kind: 'validation',
    error_message: `refused ${marker}`,
    error_action: 'edit',
    terminal_reason: 'rejected',
    ...extra,
  };
}

const published = (tenant: Tenant, marker: string) =>
  publishDurableEvent(RENDITION_PUBLISHED_SUBJECT, renditionEvent(tenant.workspaceId, marker));
const failed = (tenant: Tenant, marker: string) =>
  publishDurableEvent(RENDITION_FAILED_SUBJECT, renditionEvent(tenant.workspaceId, marker));
const withMarker = (marker: string) => (n: { body?: string; text?: string }) => (n.text ?? n.body ?? '').includes(marker);

describe('notifications: email delivery, mutes and digests (docs/decisions.md "Delivery of notifications")', () => {
  const db = testDatabase();
  const deliveriesOf = async (user: TestUser) =>
    (
      await db.query(
        `SELECT kind, status, attempts, to_address, last_error FROM notifications.email_deliveries WHERE user_id = $1 ORDER BY created_at`,
        [user.id],
      )
    ).rows as Array<{ kind: string; status: string; attempts: number; to_address: string; last_error: string }>;

  it('email_frequency off sends nothing; in_app false with email off makes no item either', async () => {
    const tenant = await createTenant();
    const first = `off-${randomUUID().slice(0, 8)}`;
    await published(tenant, first); // post_published defaults: in-app on, email off
    await waitForNotification(tenant.owner.token, withMarker(first));
    await setTopic(tenant.owner, 'post_published', { email_frequency: 'off', in_app: false });
    const second = `none-${randomUUID().slice(0, 8)}`;
    await published(tenant, second);
    const third = `fail-${randomUUID().slice(0, 8)}`;
    await failed(tenant, third); // a later event of another topic: once it is listed, the second was handled
    await waitForNotification(tenant.owner.token, withMarker(third));
    expect((await inbox(tenant.owner.token)).notifications.some(withMarker(second))).toBe(false);
    await waitForMail(tenant.owner.email, withMarker(third));
    expect((await mailsTo(tenant.owner.email)).filter((m) => withMarker(first)(m) || withMarker(second)(m))).toEqual([]);
  });

  it('an account-wide mute holds optional topics (in-app and mail) until it ends; critical ones pass at once', async () => {
    const tenant = await createTenant();
    await setTopic(tenant.owner, 'post_published', { email_frequency: 'immediate', in_app: true });
    const endsAt = new Date(Date.now() + 5_000).toISOString();
    const mute = await call('POST', '/notifications/mutes', {
      token: tenant.owner.token,
      body: { starts_at: new Date(Date.now() - 1_000).toISOString(), ends_at: endsAt },
    });
    expect(mute.status).toBe(201);
    const held = `held-${randomUUID().slice(0, 8)}`;
    const critical = `critical-${randomUUID().slice(0, 8)}`;
    await published(tenant, held);
    await failed(tenant, critical);
    await waitForNotification(tenant.owner.token, withMarker(critical));
    await waitForMail(tenant.owner.email, withMarker(critical));
    expect(Date.now()).toBeLessThan(Date.parse(endsAt));
    expect((await inbox(tenant.owner.token)).notifications.some(withMarker(held))).toBe(false);
    expect((await call('GET', '/notifications/unread-count', { token: tenant.owner.token })).body.count).toBe(1);
    expect((await mailsTo(tenant.owner.email)).some(withMarker(held))).toBe(false);
    // When the mute ends, the held item appears (at the top, at the mute's end) and its mail leaves.
    const item = await waitForNotification(tenant.owner.token, withMarker(held), 15_000);
    expect(Date.parse(item.created_at)).toBe(Date.parse(endsAt));
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(endsAt));
    const mail = await waitForMail(tenant.owner.email, withMarker(held), 5_000);
    expect(Date.parse(mail.received_at)).toBeGreaterThanOrEqual(Date.parse(endsAt) - 1_000);
  });

  it('a workspace mute holds only that workspace; transactional topics are never muted', async () => {
    const tenant = await createTenant();
    const other = await call('POST', '/workspaces', {
      token: tenant.owner.token,
      body: { organization_id: tenant.organizationId, name: 'Other' },
    });
    expect(other.status).toBe(201);
    await call('POST', '/notifications/mutes', {
      token: tenant.owner.token,
      body: {
        workspace_id: other.body.id,
        starts_at: new Date(Date.now() - 1_000).toISOString(),
        ends_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    await call('POST', '/notifications/mutes', {
      token: tenant.owner.token,
      body: { starts_at: new Date(Date.now() - 1_000).toISOString(), ends_at: new Date(Date.now() + 3_600_000).toISOString() },
    }).then(async (accountMute) => {
      // With an account mute active too, a security action still arrives at once (transactional).
      const created = await call('POST', '/api-tokens', { token: tenant.owner.token, body: { name: 'during the mute' } });
      expect(created.status).toBe(201);
      await waitForNotification(tenant.owner.token, (n) => n.topic === 'security_action');
      await waitForMail(tenant.owner.email, (m) => m.subject === 'A new API token was created');
      expect((await call('DELETE', `/notifications/mutes/${accountMute.body.id}`, { token: tenant.owner.token })).status).toBe(204);
    });
    const here = `here-${randomUUID().slice(0, 8)}`;
    const there = `there-${randomUUID().slice(0, 8)}`;
    await publishDurableEvent(RENDITION_PUBLISHED_SUBJECT, renditionEvent(other.body.id, there));
    await published(tenant, here);
    await waitForNotification(tenant.owner.token, withMarker(here));
    await pause(500);
    expect((await inbox(tenant.owner.token)).notifications.some(withMarker(there))).toBe(false);
  });

  it('a temporary refusal (451) is retried with backoff until the mail goes; nothing is lost', async () => {
    const tenant = await createTenant();
    await refuseAddress(tenant.owner.email, 451);
    const marker = `retry-${randomUUID().slice(0, 8)}`;
    try {
      await failed(tenant, marker);
      await waitForNotification(tenant.owner.token, withMarker(marker));
      const deadline = Date.now() + 10_000;
      while (((await deliveriesOf(tenant.owner))[0]?.attempts ?? 0) < 3) {
        if (Date.now() > deadline) throw new Error(`no retries: ${JSON.stringify(await deliveriesOf(tenant.owner))}`);
        await pause(200);
      }
      const [pending] = await deliveriesOf(tenant.owner);
      expect(pending).toMatchObject({ kind: 'immediate', status: 'pending', to_address: '' });
      expect(pending.last_error).toMatch(/451|try again/i);
      expect((await mailsTo(tenant.owner.email)).some(withMarker(marker))).toBe(false);
    } finally {
      await refuseAddress(tenant.owner.email, null);
    }
    await waitForMail(tenant.owner.email, withMarker(marker), 15_000);
    const [sent] = await deliveriesOf(tenant.owner);
    expect(sent).toMatchObject({ status: 'sent', to_address: tenant.owner.email.toLowerCase() });
  });

  it('a permanent refusal (550) records the address and stops mail to it until the address changes', async () => {
    const user = await registerUser();
    const tenant = {
      owner: user,
      ...(await (async () => {
        const org = await call('POST', '/organizations', { token: user.token, body: { name: 'Refused' } });
        const ws = await call('POST', '/workspaces', { token: user.token, body: { organization_id: org.body.id, name: 'Main' } });
        return { organizationId: org.body.id as string, workspaceId: ws.body.id as string };
      })()),
    };
    await refuseAddress(user.email, 550);
    const first = `refused-${randomUUID().slice(0, 8)}`;
    try {
      await failed(tenant, first);
      const deadline = Date.now() + 10_000;
      while ((await deliveriesOf(user))[0]?.status !== 'refused') {
        if (Date.now() > deadline) throw new Error(`not refused: ${JSON.stringify(await deliveriesOf(user))}`);
        await pause(200);
      }
      const suppressed = await db.query(`SELECT user_id FROM notifications.suppressed_addresses WHERE address = $1`, [
        user.email.toLowerCase(),
      ]);
      expect(suppressed.rows).toEqual([{ user_id: user.id }]);
    } finally {
      await refuseAddress(user.email, null);
    }
    // The server would take it now, but the address stays suppressed: the in-app item comes, the mail does not.
    const second = `suppressed-${randomUUID().slice(0, 8)}`;
    await failed(tenant, second);
    await waitForNotification(user.token, withMarker(second));
    const deadline = Date.now() + 10_000;
    while ((await deliveriesOf(user))[1]?.status !== 'suppressed') {
      if (Date.now() > deadline) throw new Error(`not suppressed: ${JSON.stringify(await deliveriesOf(user))}`);
      await pause(200);
    }
    expect((await mailsTo(user.email)).some((m) => withMarker(first)(m) || withMarker(second)(m))).toBe(false);

    // A new address (E2 + confirmation): mail flows again, to the new address.
    const newEmail = uniqueEmail('moved');
    const requested = await call('POST', '/auth/email-change', {
      token: user.token,
      body: { new_email: newEmail, reauth_grant: await reauthGrant(user) },
    });
    expect(requested.status).toBe(201);
    const code = (await waitForMail(newEmail, (m) => m.subject === 'Your verification code')).text.match(/\b(\d{6})\b/)![1];
    expect((await call('POST', `/auth/email-change/${requested.body.id}/confirm`, { token: user.token, body: { code } })).status).toBe(200);
    await waitForMail(newEmail, (m) => m.subject === 'Your sign-in address was changed');
    const third = `moved-${randomUUID().slice(0, 8)}`;
    await failed(tenant, third);
    await waitForMail(newEmail, withMarker(third), 10_000);
  });

  it(
    'daily sends one digest at digest_time in digest_timezone, ' + 'once that day even with two replicas, with what was collected',
    async () => {
      // A second replica checks digests (and sends mail) beside the stack's: the day's digest still goes once.
      const replica = await startNotificationsReplica();
      try {
        await dailyDigest();
      } finally {
        await replica.stop();
      }
    },
    120_000,
  );

  async function dailyDigest() {
    const tenant = await createTenant();
    await setTopic(
      tenant.owner,
      'post_published',
      { email_frequency: 'daily', in_app: true },
      { digest_time: '00:00', digest_timezone: 'UTC' },
    );
    const firstMarker = `digest-a-${randomUUID().slice(0, 8)}`;
    await published(tenant, firstMarker);
    const item = await waitForNotification(tenant.owner.token, withMarker(firstMarker));
    // The digest is due at the first digest_time after the item: the next full minute, in a zone an hour off UTC.
    const due = new Date(Math.floor(Date.parse(item.created_at) / 60_000) * 60_000 + 60_000);
    const local = new Date(due.getTime() + 3_600_000); // Africa/Lagos is UTC+1 all year
    const digestTime = `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    await setTopic(
      tenant.owner,
      'post_published',
      { email_frequency: 'daily', in_app: true },
      { digest_time: digestTime, digest_timezone: 'Africa/Lagos' },
    );
    const secondMarker = `digest-b-${randomUUID().slice(0, 8)}`;
    await published(tenant, secondMarker);
    await waitForNotification(tenant.owner.token, withMarker(secondMarker));
    // Collected, not sent: nothing before the due minute.
    if (Date.now() < due.getTime() - 1_000) {
      await pause(Math.min(1_000, due.getTime() - Date.now() - 500));
      expect((await mailsTo(tenant.owner.email)).filter((m) => /daily digest/.test(m.subject))).toEqual([]);
    }
    const digest = await waitForMail(tenant.owner.email, (m) => /daily digest/.test(m.subject), due.getTime() - Date.now() + 10_000);
    expect(Date.parse(digest.received_at)).toBeGreaterThanOrEqual(due.getTime());
    expect(digest.subject).toMatch(/: 2 notifications$/);
    expect(digest.text).toContain(firstMarker);
    expect(digest.text).toContain(secondMarker);
    expect(digest.html).toContain('<li>');
    // Another one the same (local) day waits for tomorrow's digest: no second digest today.
    const thirdMarker = `digest-c-${randomUUID().slice(0, 8)}`;
    await published(tenant, thirdMarker);
    await waitForNotification(tenant.owner.token, withMarker(thirdMarker));
    await pause(2_000);
    expect((await mailsTo(tenant.owner.email)).filter((m) => /daily digest/.test(m.subject))).toHaveLength(1);
    const runs = await db.query(`SELECT items FROM notifications.digest_runs WHERE user_id = $1`, [tenant.owner.id]);
    expect(runs.rows).toEqual([{ items: 2 }]);
    const waiting = await db.query(`SELECT count(*)::int AS n FROM notifications.notifications WHERE user_id = $1 AND digest_pending`, [
      tenant.owner.id,
    ]);
    expect(waiting.rows[0].n).toBe(1);
  }
});
