import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { call } from '../support/api.js';
import { expectNoAxeViolations, launchBrowser, PHONE } from '../support/browser.js';
import { expectAlertSaying, expectNoSideScrolling, openConsoleAs, visit } from '../support/console-session.js';
import { inbox, waitForNotification } from '../support/notifications.js';
import { createTenant, joinWorkspace, type Tenant } from '../support/tenancy.js';

/** The notification inbox and preferences in a real browser against the whole platform. */
describe('web console: inbox and notification preferences', () => {
  let browser: Browser;
  let tenant: Tenant;

  beforeAll(async () => {
    browser = await launchBrowser();
    tenant = await createTenant();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows a notification unread, marks it read, and at 360 px fits the screen', async () => {
    const member = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
    // A role change tells the person concerned (access_changed).
    const changed = await call('PATCH', `/workspaces/${tenant.workspaceId}/members/${member.id}`, {
      token: tenant.owner.token,
      body: { role: 'editor' },
    });
    expect(changed.status).toBe(200);
    const notification = await waitForNotification(member.token, (item) => item.topic === 'access_changed');

    const page = await openConsoleAs(browser, member, '/inbox', 'Inbox', PHONE);
    const row = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: notification.title });
    await row.getByText('Unread').waitFor();
    await expectNoSideScrolling(page);
    await expectNoAxeViolations(page);

    await row.getByRole('button', { name: `Mark read: ${notification.title}` }).click();
    await row.getByText('Unread').waitFor({ state: 'detached' });
    const after = await inbox(member.token, '?limit=100');
    expect(after.notifications.find((item: { id: string }) => item.id === notification.id).read_at).not.toBeNull();

    await page.getByLabel('Only unread').check();
    await page.getByText('Nothing unread').waitFor();
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it('changes a preference and sets a mute; a bad time zone is refused in words', async () => {
    const page = await openConsoleAs(browser, tenant.owner, '/settings/notifications', 'Notification preferences');
    await expectNoAxeViolations(page);
    await page.getByLabel('Email: Post published').selectOption('daily');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByText('Saved.').waitFor();
    const saved = await call('GET', '/notifications/preferences', { token: tenant.owner.token });
    expect(saved.body.preferences.post_published.email_frequency).toBe('daily');
    expect(saved.body.digest_timezone).toBe('Europe/Paris');

    await page.getByLabel('Time zone').fill('Mars/Olympus_Mons');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    const refused = await call('PUT', '/notifications/preferences', {
      token: tenant.owner.token,
      body: { preferences: {}, digest_timezone: 'Mars/Olympus_Mons' },
    });
    expect(refused.status).toBe(422);
    await expectAlertSaying(page, refused.body.detail);

    const until = new Date(Date.now() + 2 * 86_400_000);
    const local = new Date(until.getTime() - until.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel('Until').fill(local);
    await page.getByRole('button', { name: 'Mute', exact: true }).click();
    await page.getByText('Every workspace').first().waitFor();
    const mutes = await call('GET', '/notifications/mutes', { token: tenant.owner.token });
    expect(mutes.body.mutes).toHaveLength(1);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: /^Remove the mute/ }).click();
    await page.getByText('Nothing is muted.').waitFor();

    await page.setViewportSize(PHONE);
    await visit(page, '/settings/notifications', 'Notification preferences');
    await expectNoSideScrolling(page);
    await page.context().close();
  });
});
