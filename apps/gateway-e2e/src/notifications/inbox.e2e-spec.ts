import { describe, expect, it } from '@jest/globals';
import { ACCOUNT_NEEDS_ATTENTION_SUBJECT, RENDITION_NEEDS_ATTENTION_SUBJECT, SECURITY_ACTION_SUBJECT } from '@social/contracts';
import { randomUUID } from 'node:crypto';
import { call, expectProblem, locations, registerUser, RFC3339_MS, schemaUrlFor, TestUser } from '../support/api.js';
import { workspaceToken } from '../support/admin.js';
import { testDatabase } from '../support/database.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { mailsTo, waitForMail } from '../support/mail.js';
import { inbox, pause, publishDurableEvent, publishSandbox, setTopic, waitForNotification } from '../support/notifications.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A security action for `user`, as accounts' outbox would publish it. */
const securityEvent = (user: TestUser, detail = `token ${randomUUID().slice(0, 8)}`) => ({
  event_id: randomUUID(),
  user_id: user.id,
  action: 'api_token_created',
  occurred_at: new Date().toISOString(),
  detail,
});

/** `count` security_action items for the user, published directly to the stream; waits until all are listed. */
async function securityItems(user: TestUser, count: number): Promise<string[]> {
  const details: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const event = securityEvent(user, `item ${i} ${randomUUID().slice(0, 6)}`);
    details.push(event.detail);
    await publishDurableEvent(SECURITY_ACTION_SUBJECT, event);
    // Distinct created_at values keep the expected order unambiguous.
    await pause(5);
  }
  for (const detail of details) await waitForNotification(user.token, (n) => n.body.includes(detail));
  return details;
}

describe('notifications: in-app inbox and event sources (docs/decisions.md "Delivery of notifications")', () => {
  const db = testDatabase();

  it(
    'a scheduled sandbox publication makes one post_published item for ' +
      'each editor and admin (not viewers), and mails who asked for it',
    async () => {
      const tenant = await createTenant();
      const editor = await joinWorkspace(tenant.owner, tenant.workspaceId, 'editor');
      const viewer = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
      await setTopic(tenant.owner, 'post_published', { email_frequency: 'immediate', in_app: true });
      const publication = await publishSandbox(tenant.owner.token, tenant.workspaceId, 'Notify me when it is live');
      expect(publication.status).toBe('published');

      const item = await waitForNotification(
        tenant.owner.token,
        (n) => n.topic === 'post_published' && n.link === `/publications/${publication.id}`,
      );
      expect(item).toEqual({
        id: expect.stringMatching(UUID),
        topic: 'post_published',
        workspace_id: tenant.workspaceId,
        title: 'Published on sandbox',
        body: expect.stringContaining(publication.renditions[0].external_url),
        link: `/publications/${publication.id}`,
        created_at: expect.stringMatching(RFC3339_MS),
        read_at: null,
      });
      const page = await inbox(tenant.owner.token);
      expect(page.$schema).toBe(schemaUrlFor('NotificationList'));
      await expectMatchesOwnSchema(page, 'NotificationList');
      expect(page.next_cursor).toBe('');
      expect(page.notifications.filter((n: any) => n.topic === 'post_published')).toHaveLength(1);

      const editorItem = await waitForNotification(editor.token, (n) => n.topic === 'post_published');
      expect(editorItem).toMatchObject({ link: item.link, title: item.title, workspace_id: tenant.workspaceId });
      expect(editorItem.id).not.toBe(item.id);
      // Both items were written in one transaction: the viewer's would be there by now.
      expect((await inbox(viewer.token)).notifications).toEqual([]);

      // The owner chose immediate mail: a plain-text and an HTML part with the link.
      const mail = await waitForMail(tenant.owner.email, (m) => m.subject === 'Published on sandbox');
      expect(mail.text).toContain(`/publications/${publication.id}`);
      expect(mail.text).toContain(publication.renditions[0].external_url);
      expect(mail.html).toMatch(new RegExp(`<a href="[^"]*/publications/${publication.id}"`));
      // The editor kept the default (post_published email off).
      await pause(500);
      expect((await mailsTo(editor.email)).filter((m) => m.subject === 'Published on sandbox')).toEqual([]);
    },
  );

  it('a rejected publication makes publish_failed, mailed at once by default', async () => {
    const tenant = await createTenant();
    const publication = await publishSandbox(tenant.owner.token, tenant.workspaceId, 'Not this one [sandbox:reject]');
    expect(publication.status).toBe('failed');
    const item = await waitForNotification(tenant.owner.token, (n) => n.topic === 'publish_failed');
    expect(item).toMatchObject({
      title: 'Publishing to sandbox failed',
      link: `/publications/${publication.id}`,
      workspace_id: tenant.workspaceId,
    });
    const mail = await waitForMail(tenant.owner.email, (m) => m.subject === 'Publishing to sandbox failed');
    expect(mail.html).toContain('<p>');
  });

  it('account.needs-attention reaches editors and admins of the workspace, not viewers', async () => {
    const tenant = await createTenant();
    const editor = await joinWorkspace(tenant.owner, tenant.workspaceId, 'editor');
    const viewer = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
    const accountId = randomUUID();
    await publishDurableEvent(ACCOUNT_NEEDS_ATTENTION_SUBJECT, {
      workspace_id: tenant.workspaceId,
      social_account_id: accountId,
      platform: 'mastodon',
      reason: 'grant_refresh_refused',
      occurred_at: new Date().toISOString(),
    });
    const publicationId = randomUUID();
    await publishDurableEvent(RENDITION_NEEDS_ATTENTION_SUBJECT, {
      workspace_id: tenant.workspaceId,
      publication_id: publicationId,
      rendition_id: randomUUID(),
      social_account_id: accountId,
      platform: 'mastodon',
      attempt: 2,
      occurred_at: new Date().toISOString(),
      error_code: 'delivery_ambiguous',
      error_message: 'The network did not answer',
      error_action: 'check',
    });
    // A payload without a workspace is acknowledged and makes nothing (never retried forever, never a 500).
    await publishDurableEvent(ACCOUNT_NEEDS_ATTENTION_SUBJECT, { social_account_id: accountId, platform: 'mastodon' });
    for (const user of [tenant.owner, editor]) {
      const item = await waitForNotification(user.token, (n) => n.link === `/social-accounts/${accountId}`);
      expect(item).toMatchObject({
        topic: 'account_needs_attention',
        workspace_id: tenant.workspaceId,
        title: 'Your mastodon account needs to be connected again',
      });
      const rendition = await waitForNotification(user.token, (n) => n.link === `/publications/${publicationId}`);
      expect(rendition).toMatchObject({ topic: 'account_needs_attention', title: 'A post to mastodon needs your attention' });
      expect(rendition.body).toContain('The network did not answer');
    }
    await pause(300);
    expect((await inbox(tenant.owner.token)).notifications).toHaveLength(2);
    expect((await inbox(viewer.token)).notifications).toEqual([]);
    // Someone who joins now receives the workspace's next event (recipients are asked anew after a membership change).
    const joiner = await joinWorkspace(tenant.owner, tenant.workspaceId, 'editor');
    const laterAccount = randomUUID();
    await publishDurableEvent(ACCOUNT_NEEDS_ATTENTION_SUBJECT, {
      workspace_id: tenant.workspaceId,
      social_account_id: laterAccount,
      platform: 'bluesky',
      reason: 'grant_rejected',
      occurred_at: new Date().toISOString(),
    });
    await waitForNotification(joiner.token, (n) => n.link === `/social-accounts/${laterAccount}`);
    expect((await inbox(joiner.token)).notifications).toHaveLength(1);
  });

  it('real account changes notify the user concerned: a new API token (security_action), a role change (access_changed)', async () => {
    const tenant = await createTenant();
    const created = await call('POST', '/api-tokens', { token: tenant.owner.token, body: { name: 'deploy bot' } });
    expect(created.status).toBe(201);
    const security = await waitForNotification(tenant.owner.token, (n) => n.topic === 'security_action');
    expect(security).toMatchObject({ title: 'A new API token was created', workspace_id: '', link: '/auth/security' });
    expect(security.body).toContain('deploy bot');
    const mail = await waitForMail(tenant.owner.email, (m) => m.subject === 'A new API token was created');
    expect(mail.text).toContain('deploy bot');

    const member = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
    const changed = await call('PATCH', `/workspaces/${tenant.workspaceId}/members/${member.id}`, {
      token: tenant.owner.token,
      body: { role: 'editor' },
    });
    expect(changed.status).toBe(200);
    const access = await waitForNotification(member.token, (n) => n.topic === 'access_changed');
    expect(access).toMatchObject({ workspace_id: tenant.workspaceId, link: `/workspaces/${tenant.workspaceId}` });
    expect(access.body).toContain('is now editor (it was viewer)');
    await waitForMail(member.email, (m) => m.subject === access.title);
    // The same role again changes nothing and announces nothing.
    await call('PATCH', `/workspaces/${tenant.workspaceId}/members/${member.id}`, { token: tenant.owner.token, body: { role: 'editor' } });
    await pause(500);
    expect((await inbox(member.token)).notifications.filter((n: any) => n.topic === 'access_changed')).toHaveLength(1);
  });

  it('an event handled twice makes one item and one mail', async () => {
    const user = await registerUser();
    const event = securityEvent(user);
    // Two stream messages (different Nats-Msg-Id) carrying the same event: a redelivery as far as the consumer can tell.
    await publishDurableEvent(SECURITY_ACTION_SUBJECT, event);
    await publishDurableEvent(SECURITY_ACTION_SUBJECT, event);
    await waitForNotification(user.token, (n) => n.body.includes(event.detail));
    await waitForMail(user.email, (m) => m.text.includes(event.detail));
    await publishDurableEvent(SECURITY_ACTION_SUBJECT, event);
    await pause(1_000);
    expect((await inbox(user.token)).notifications).toHaveLength(1);
    expect((await mailsTo(user.email)).filter((m) => m.text.includes(event.detail))).toHaveLength(1);
    const rows = await db.query(`SELECT count(*)::int AS n FROM notifications.email_deliveries WHERE user_id = $1`, [user.id]);
    expect(rows.rows[0].n).toBe(1);
  });

  it('pages newest first with cursors bound to the filter; unread filter, read, read-all and the unread count', async () => {
    const user = await registerUser();
    const details = await securityItems(user, 3);
    const count = await call('GET', '/notifications/unread-count', { token: user.token });
    expect(count.status).toBe(200);
    expect(count.body).toEqual({ $schema: schemaUrlFor('NotificationUnreadCount'), count: 3 });
    await expectMatchesOwnSchema(count.body, 'NotificationUnreadCount');

    const first = await inbox(user.token, '?limit=2');
    expect(first.notifications.map((n: any) => n.body)).toEqual([expect.stringContaining(details[2]), expect.stringContaining(details[1])]);
    expect(first.next_cursor).not.toBe('');
    const second = await inbox(user.token, `?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(second.notifications.map((n: any) => n.body)).toEqual([expect.stringContaining(details[0])]);
    expect(second.next_cursor).toBe('');

    // Reading one: 204, read_at set, the count and the unread filter follow; reading again keeps the first read_at.
    const target = first.notifications[1];
    const read = await call('POST', `/notifications/${target.id}/read`, { token: user.token });
    expect(read.status).toBe(204);
    expect(read.body).toBe('');
    const afterRead = await inbox(user.token);
    const readItem = afterRead.notifications.find((n: any) => n.id === target.id);
    expect(readItem.read_at).toMatch(RFC3339_MS);
    expect((await call('POST', `/api/v1/notifications/${target.id}/read`, { token: user.token })).status).toBe(204);
    expect((await inbox(user.token)).notifications.find((n: any) => n.id === target.id).read_at).toBe(readItem.read_at);
    expect((await call('GET', '/notifications/unread-count', { token: user.token })).body.count).toBe(2);
    const unread = await inbox(user.token, '?unread=true');
    expect(unread.notifications.map((n: any) => n.id)).not.toContain(target.id);
    expect(unread.notifications).toHaveLength(2);

    // A cursor of the unfiltered list does not page the unread list (and vice versa): 422.
    const unreadPage = await inbox(user.token, '?unread=true&limit=1');
    const crossed = expectProblem(
      await call('GET', `/notifications?cursor=${encodeURIComponent(first.next_cursor)}&unread=true`, { token: user.token }),
      422,
    );
    expect(locations(crossed)).toEqual(['query.cursor']);
    expectProblem(await call('GET', `/notifications?cursor=${encodeURIComponent(unreadPage.next_cursor)}`, { token: user.token }), 422);

    const all = await call('POST', '/notifications/read-all', { token: user.token });
    expect(all.status).toBe(204);
    expect((await call('GET', '/notifications/unread-count', { token: user.token })).body.count).toBe(0);
    expect((await inbox(user.token, '?unread=true')).notifications).toEqual([]);
    expect((await inbox(user.token)).notifications.every((n: any) => typeof n.read_at === 'string')).toBe(true);
  });

  it('refuses bad cursors and filters with 422 naming the query member; unknown ids are 404', async () => {
    const user = await registerUser();
    const [detail] = await securityItems(user, 2);
    const page = await inbox(user.token, '?limit=1');
    const tampered = `${page.next_cursor.slice(0, -2)}${page.next_cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const [query, location] of [
      [`?cursor=${encodeURIComponent(tampered)}`, 'query.cursor'],
      ['?cursor=not-a-cursor', 'query.cursor'],
      ['?limit=0', 'query.limit'],
      ['?limit=101', 'query.limit'],
      ['?limit=ten', 'query.limit'],
      ['?unread=yes', 'query.unread'],
      ['?colour=blue', 'query.colour'],
    ]) {
      const problem = expectProblem(await call('GET', `/notifications${query}`, { token: user.token }), 422);
      expect(locations(problem)).toContain(location);
    }
    // Another user's cursor is bound to that user: 422, never their page.
    const other = await registerUser();
    expectProblem(await call('GET', `/notifications?cursor=${encodeURIComponent(page.next_cursor)}`, { token: other.token }), 422);
    expectProblem(await call('POST', `/notifications/${randomUUID()}/read`, { token: user.token }), 404, 'not_found');
    expectProblem(await call('POST', '/notifications/not-a-uuid/read', { token: user.token }), 404, 'not_found');
    expect((await inbox(user.token)).notifications.some((n: any) => n.body.includes(detail))).toBe(true);
  });

  it('another user cannot see, read or count the caller’s items (404), and the owner’s view is unchanged', async () => {
    const owner = await registerUser();
    const intruder = await registerUser();
    await securityItems(owner, 1);
    const [item] = (await inbox(owner.token)).notifications;
    expectProblem(await call('POST', `/notifications/${item.id}/read`, { token: intruder.token }), 404, 'not_found');
    await call('POST', '/notifications/read-all', { token: intruder.token });
    expect((await inbox(intruder.token)).notifications).toEqual([]);
    expect((await call('GET', '/notifications/unread-count', { token: intruder.token })).body.count).toBe(0);
    expect((await inbox(owner.token)).notifications).toEqual([item]);

    // Mutes are the other resource here: another user's mute is 404 for every operation.
    const mute = await call('POST', '/notifications/mutes', {
      token: owner.token,
      body: { starts_at: new Date().toISOString(), ends_at: new Date(Date.now() + 3_600_000).toISOString() },
    });
    await expectTenantIsolation({
      url: `/notifications/mutes/${mute.body.id}`,
      ownerToken: owner.token,
      intruderToken: intruder.token,
      attempts: [{ method: 'DELETE' }],
      ownerView: [`/notifications/mutes/${mute.body.id}`, '/notifications/mutes', '/notifications'],
    });
  });

  it('lists mutes (GET /notifications/mutes) and answers the Location of a created one (GET /notifications/mutes/{id})', async () => {
    const user = await registerUser();
    const tenant = await createTenant();
    const soon = await call('POST', '/notifications/mutes', {
      token: tenant.owner.token,
      body: {
        workspace_id: tenant.workspaceId,
        starts_at: new Date(Date.now() + 60_000).toISOString(),
        ends_at: new Date(Date.now() + 7_200_000).toISOString(),
      },
    });
    const now = await call('POST', '/notifications/mutes', {
      token: tenant.owner.token,
      body: { starts_at: new Date(Date.now() - 60_000).toISOString(), ends_at: new Date(Date.now() + 3_600_000).toISOString() },
    });
    const one = await call('GET', now.headers.get('location')!, { token: tenant.owner.token });
    expect(one.status).toBe(200);
    await expectMatchesOwnSchema(one.body, 'NotificationMute');
    expect(one.body).toEqual(now.body);
    const list = await call('GET', '/notifications/mutes', { token: tenant.owner.token });
    expect(list.status).toBe(200);
    await expectMatchesOwnSchema(list.body, 'NotificationMuteList');
    const strip = ({ $schema: _s, ...rest }: any) => rest;
    expect(list.body.mutes).toEqual([strip(now.body), strip(soon.body)]);
    expect((await call('GET', '/notifications/mutes', { token: user.token })).body.mutes).toEqual([]);
    expectProblem(await call('GET', `/notifications/mutes/${now.body.id}`, { token: user.token }), 404, 'not_found');
    expectProblem(await call('GET', '/notifications/mutes/nope', { token: tenant.owner.token }), 404, 'not_found');
  });

  it('deleting the organization purges its notifications', async () => {
    const tenant = await createTenant();
    const editor = await joinWorkspace(tenant.owner, tenant.workspaceId, 'editor');
    await publishDurableEvent(ACCOUNT_NEEDS_ATTENTION_SUBJECT, {
      workspace_id: tenant.workspaceId,
      social_account_id: randomUUID(),
      platform: 'sandbox',
      reason: 'grant_rejected',
      occurred_at: new Date().toISOString(),
    });
    await waitForNotification(editor.token, (n) => n.workspace_id === tenant.workspaceId);
    await securityItems(editor, 1);
    expect((await call('DELETE', `/organizations/${tenant.organizationId}`, { token: tenant.owner.token })).status).toBe(202);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows = await db.query(`SELECT count(*)::int AS n FROM notifications.notifications WHERE workspace_id = $1`, [
        tenant.workspaceId,
      ]);
      if (rows.rows[0].n === 0) break;
      if (Date.now() > deadline) throw new Error('the workspace’s notifications were not purged');
      await pause(200);
    }
    const left = (await inbox(editor.token)).notifications;
    expect(left.map((n: any) => n.topic)).toEqual(['security_action']);
  });

  it('needs an account token: none is 401, a workspace-bound API token is 403', async () => {
    expectProblem(await call('GET', '/notifications'), 401);
    expectProblem(await call('GET', '/notifications/unread-count'), 401);
    expectProblem(await call('POST', '/notifications/read-all'), 401);
    const user = await registerUser();
    const token = await workspaceToken(user);
    expectProblem(await call('GET', '/notifications', { token }), 403);
    expectProblem(await call('POST', '/notifications/read-all', { token }), 403);
    expectProblem(await call('GET', '/notifications/mutes', { token }), 403);
  });
});
