import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { call, eventually, registerUser } from '../support/api.js';
import { expectNoAxeViolations, launchBrowser, PHONE } from '../support/browser.js';
import { expectAlertSaying, expectNoSideScrolling, openConsoleAs, visit } from '../support/console-session.js';
import { createTenant, joinWorkspace, type Tenant } from '../support/tenancy.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** Members, invitations, API tokens and webhooks in a real browser against the whole platform. */
describe('web console: workspace settings', () => {
  let browser: Browser;
  let tenant: Tenant;

  beforeAll(async () => {
    browser = await launchBrowser();
    tenant = await createTenant();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('creates an API token (its secret shown once, and it works), then revokes it; a refused one says why', async () => {
    const page = await openConsoleAs(browser, tenant.owner, '/settings/api-tokens', 'API tokens');
    await expectNoAxeViolations(page);
    await page.getByLabel('Name').fill('Deploy script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByLabel('The new token').textContent()) ?? '';
    await expect(call('GET', '/auth/me', { token: secret }).then((answer) => answer.status)).resolves.toBe(200);
    await expectNoAxeViolations(page);

    const row = page.getByRole('list', { name: 'Tokens' }).getByRole('listitem').filter({ hasText: 'Deploy script' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Confirm: revoke the token Deploy script' }).click();
    await page.getByText('No API tokens').waitFor();
    await eventually(async () => expect((await call('GET', '/auth/me', { token: secret })).status).toBe(401), 10_000);

    // An expiry in the past is refused: the API's words, on the page.
    await page.getByLabel('Name').fill('Too late');
    await page.getByLabel('Expires on').fill('2020-01-01');
    await page.getByRole('button', { name: 'Create token' }).click();
    const refused = await call('POST', '/api-tokens', {
      token: tenant.owner.token,
      body: { name: 'Too late', expires_at: new Date('2020-01-01T23:59:59').toISOString() },
    });
    expect(refused.status).toBe(422);
    await expectAlertSaying(page, refused.body.detail);
    await page.context().close();
  });

  it('invites a member, who accepts through the mailed link; the admin changes their role and removes them', async () => {
    const invitee = await registerUser();
    const page = await openConsoleAs(browser, tenant.owner, '/settings/invitations', 'Invitations');
    await expectNoAxeViolations(page);
    await page.getByLabel('Email').fill(invitee.email);
    await page.getByLabel('Role').selectOption('viewer');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = (await page.getByRole('status').locator('code').textContent()) ?? '';
    expect(link).toMatch(/\/invite\?token=/);
    await page.getByRole('list', { name: 'Invitations' }).getByText(invitee.email).waitFor();

    // Inviting the same address again is refused while the first invitation is pending.
    await page.getByLabel('Email').fill(invitee.email);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const again = await call('POST', `/workspaces/${tenant.workspaceId}/invitations`, {
      token: tenant.owner.token,
      body: { email: invitee.email, role: 'viewer' },
    });
    expect(again.status).toBe(409);
    await expectAlertSaying(page, again.body.detail);
    await expectNoAxeViolations(page);

    const path = new URL(link).pathname + new URL(link).search;
    const invited = await openConsoleAs(browser, invitee, path, 'Invitation');
    await expectNoAxeViolations(invited);
    await invited.getByRole('button', { name: 'Accept the invitation' }).click();
    await invited.getByRole('heading', { level: 1, name: 'Calendar' }).waitFor();
    await expect(invited.getByLabel('Workspace').inputValue()).resolves.toBe(tenant.workspaceId);
    // The link works once: a second acceptance says why it cannot.
    await visit(invited, path, 'Invitation');
    await invited.getByRole('button', { name: 'Accept the invitation' }).click();
    await invited.getByRole('alert').filter({ hasText: 'The invitation could not be accepted' }).waitFor();
    await invited.context().close();

    await visit(page, '/settings/members', 'Members');
    await expectNoAxeViolations(page);
    const role = page.getByLabel(new RegExp(`^Role of .*${invitee.email}`));
    await expect(role.inputValue()).resolves.toBe('viewer');
    await role.selectOption('editor');
    await eventually(async () => {
      const members = await call('GET', `/workspaces/${tenant.workspaceId}/members`, { token: tenant.owner.token });
      expect(members.body.members.find((member: { user_id: string }) => member.user_id === invitee.id)?.role).toBe('editor');
    });
    const row = page.getByRole('list', { name: 'Members' }).getByRole('listitem').filter({ hasText: invitee.email });
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: new RegExp(`^Confirm: remove .*${invitee.email}`) }).click();
    await expect(row.waitFor({ state: 'detached' })).resolves.toBeUndefined();
    await page.context().close();
  });

  it('renames the workspace and adds another one', async () => {
    const page = await openConsoleAs(browser, tenant.owner, '/settings/members', 'Members');
    await page.getByLabel('Workspace name').fill('Main renamed');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'Members of Main renamed' }).waitFor();
    await page.getByLabel(/^New workspace in/).fill('Second');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('heading', { name: 'Members of Second' }).waitFor();
    await expect(page.getByLabel('Workspace').locator('option').allTextContents()).resolves.toEqual(['Main renamed', 'Second']);
    await page.context().close();
  });

  it('creates a webhook (secret shown once), sends its test and sees the delivery; deactivates and deletes it', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const url = receiver.endpoint();
      const page = await openConsoleAs(browser, tenant.owner, '/settings/webhooks', 'Webhooks');
      await expectNoAxeViolations(page);

      // http:// to a host the instance does not allow is refused, in the API's words.
      await page.getByLabel('URL').fill('http://example.com/hook');
      await page.getByLabel('A publication was published').check();
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const refused = await call('POST', '/webhooks', {
        token: tenant.owner.token,
        body: { workspace_id: tenant.workspaceId, url: 'http://example.com/hook', events: ['publication.published'], description: '' },
      });
      expect(refused.status).toBe(422);
      await expectAlertSaying(page, refused.body.detail);

      await page.getByLabel('URL').fill(url);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await expect(page.getByLabel('The signing secret').textContent()).resolves.toMatch(/^whsec_/);
      const row = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').filter({ hasText: url }).first();
      await row.getByRole('button', { name: `Send test to ${url}` }).click();
      await row.getByRole('list', { name: 'Deliveries' }).getByText('succeeded').waitFor({ timeout: 20_000 });
      expect(receiver.requestsTo(url).map((request) => JSON.parse(request.body).type)).toEqual(['webhook.test']);
      await expectNoAxeViolations(page);

      await row.getByRole('button', { name: 'Redeliver' }).click();
      await eventually(async () => expect(receiver.requestsTo(url)).toHaveLength(2), 15_000);
      await row.getByRole('button', { name: 'Deactivate' }).click();
      await row.getByText('Inactive').waitFor();
      await row.getByRole('button', { name: 'Delete' }).click();
      await row.getByRole('button', { name: `Confirm: delete the webhook ${url}` }).click();
      await page.getByText('No webhooks yet').waitFor();
      await page.context().close();
    } finally {
      await receiver.stop();
    }
  });

  it('a viewer sees read-only settings; every settings page fits 360 px and passes axe', async () => {
    const viewer = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
    const page = await openConsoleAs(browser, viewer, '/settings/members', 'Members', PHONE);
    await expect(page.getByRole('button', { name: 'Rename' }).count()).resolves.toBe(0);
    await expect(page.getByRole('combobox', { name: /^Role of/ }).count()).resolves.toBe(0);
    await expectNoSideScrolling(page);
    await expectNoAxeViolations(page);
    for (const [path, heading, readOnly] of [
      ['/settings/invitations', 'Invitations', "Only the workspace's admins invite people"],
      ['/settings/webhooks', 'Webhooks', "Only the workspace's admins manage webhooks"],
      ['/settings/api-tokens', 'API tokens', ''],
    ]) {
      await visit(page, path, heading);
      if (readOnly) await page.getByText(readOnly).waitFor();
      await expectNoSideScrolling(page);
      await expectNoAxeViolations(page);
    }
    await page.context().close();

    const admin = await openConsoleAs(browser, tenant.owner, '/settings/webhooks', 'Webhooks', PHONE);
    await expectNoSideScrolling(admin);
    await visit(admin, '/settings/invitations', 'Invitations');
    await expectNoSideScrolling(admin);
    await expectNoAxeViolations(admin);
    await admin.context().close();
  });
});
