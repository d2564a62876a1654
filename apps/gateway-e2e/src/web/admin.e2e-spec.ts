import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { call } from '../support/api.js';
import { registerAdmin } from '../support/admin.js';
import { expectNoAxeViolations, launchBrowser, PHONE } from '../support/browser.js';
import { expectAlertSaying, expectNoSideScrolling, openConsoleAs } from '../support/console-session.js';
import { createTenant } from '../support/tenancy.js';

/** Instance administration in a real browser against the whole platform. */
describe('web console: administration', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('an admin changes an instance setting and resets it; a refused value says why; every section passes axe', async () => {
    const admin = await registerAdmin();
    try {
      const page = await openConsoleAs(browser, admin, '/admin', 'Administration');
      await page.getByText('Users', { exact: true }).first().waitFor();
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Instance settings' }).click();
      const attempts = page.getByLabel('Sign-in attempts per email', { exact: true });
      await attempts.fill('0');
      await page.getByRole('button', { name: 'Save Sign-in attempts per email' }).click();
      const refused = await call('PUT', '/admin/instance-settings', {
        token: admin.token,
        body: { settings: [{ key: 'rate_limit_login_per_email', value: '0' }] },
      });
      expect(refused.status).toBe(422);
      await expectAlertSaying(page, refused.body.detail);

      await attempts.fill('25');
      await page.getByRole('button', { name: 'Save Sign-in attempts per email' }).click();
      await page.getByRole('button', { name: 'Reset Sign-in attempts per email' }).waitFor();
      const saved = await call('GET', '/admin/instance-settings', { token: admin.token });
      const setting = (key: string, body = saved.body) => body.settings.find((item: { key: string }) => item.key === key);
      expect(setting('rate_limit_login_per_email')).toMatchObject({ value: '25', source: 'database' });
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'Reset Sign-in attempts per email' }).click();
      await page.getByRole('button', { name: 'Reset Sign-in attempts per email' }).waitFor({ state: 'detached' });
      const reset = await call('GET', '/admin/instance-settings', { token: admin.token });
      expect(setting('rate_limit_login_per_email', reset.body).database_override_configured).toBe(false);

      for (const section of ['Provider apps', 'Users', 'AI prompts']) {
        await page.getByRole('button', { name: section }).click();
        await page.getByRole('heading', { level: 2, name: section }).waitFor();
        await expectNoAxeViolations(page);
      }
      await page.getByRole('button', { name: 'Users' }).click();
      await page.getByLabel('Search by email or name').fill(admin.email);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('cell', { name: admin.email }).first().waitFor();

      await page.setViewportSize(PHONE);
      for (const section of ['Overview', 'Instance settings', 'Provider apps', 'Users', 'AI prompts']) {
        await page.getByRole('button', { name: section }).click();
        await expectNoSideScrolling(page);
      }
      await page.context().close();
    } finally {
      // Back to the environment's value whatever happened: other suites share the instance.
      await call('PUT', '/admin/instance-settings', {
        token: admin.token,
        body: { settings: [{ key: 'rate_limit_login_per_email', unset: true }] },
      });
    }
  });

  it('is not offered to people who are not instance admins', async () => {
    const tenant = await createTenant();
    const page = await openConsoleAs(browser, tenant.owner, '/calendar', 'Calendar');
    await expect(page.getByRole('link', { name: 'Administration' }).count()).resolves.toBe(0);
    await page.goto(page.url().replace('/calendar', '/admin'));
    await page.getByText('Only instance administrators can open this page.').waitFor();
    await page.context().close();
  });
});
