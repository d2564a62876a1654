import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { call } from '../support/api.js';
import { consoleUrl, expectNoAxeViolations, launchBrowser, newPage, PHONE, signInThroughUi, signUpThroughUi } from '../support/browser.js';

/** The console's frame in a real browser against the whole platform: session, workspaces, problems in words. */
describe('web console: the shell', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('signs up, sets up a workspace, signs out and in again; a refused sign-in says why', async () => {
    const page = await newPage(browser);
    const user = await signUpThroughUi(page);
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await expectNoAxeViolations(page);

    await signInThroughUi(page, { ...user, password: 'not the password at all' });
    const refused = await call('POST', '/auth/login', { body: { email: user.email, password: 'not the password at all' } });
    await expect(page.getByRole('alert').textContent()).resolves.toContain(refused.body.detail);
    await expectNoAxeViolations(page);

    await signInThroughUi(page, user);
    await page.getByRole('heading', { level: 1, name: 'Calendar' }).waitFor();
    await page.context().close();
  });

  it('opens deep links after signing in, and switches workspaces (remembered on reload)', async () => {
    const page = await newPage(browser);
    const user = await signUpThroughUi(page, { workspace: 'First' });
    const login = await call('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    const organizations = await call('GET', '/organizations', { token: login.body.access_token });
    const organizationId = organizations.body.organizations[0].id;
    const created = await call('POST', '/workspaces', {
      token: login.body.access_token,
      body: { organization_id: organizationId, name: 'Second' },
    });
    expect(created.status).toBe(201);

    await page.goto(consoleUrl('/settings/security'));
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
    const workspace = page.getByLabel('Workspace');
    await expect(workspace.locator('option').allTextContents()).resolves.toEqual(['First', 'Second']);
    await workspace.selectOption({ label: 'Second' });
    await page.reload();
    await expect(page.getByLabel('Workspace').inputValue()).resolves.toBe(created.body.id);

    // Signed out, a deep link leads through the sign-in and back to where it pointed.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.goto(consoleUrl('/settings/api-tokens'));
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
    await page.context().close();
  });

  it('works at 360 px: the navigation opens from the menu, every landmark passes axe', async () => {
    const page = await newPage(browser, PHONE);
    await signUpThroughUi(page);
    await expect(page.getByRole('navigation', { name: 'Main' }).isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    await expect(page.getByRole('navigation', { name: 'Main' }).isVisible()).resolves.toBe(false);
    // Nothing overflows the narrow screen sideways.
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(PHONE.width);
    await page.context().close();
  });

  it('loads the sign-in page, a first visit, within the budget: under 300 KB over the wire (gzipped)', async () => {
    const page = await newPage(browser);
    await page.goto(consoleUrl('/sign-in'));
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    const load = (await page.evaluate(`(() => {
      const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
      return { bytes: entries.reduce((sum, entry) => sum + entry.transferSize, 0), ms: Math.round(performance.now()) };
    })()`)) as { bytes: number; ms: number };
    console.log(`web console first load: ${Math.round(load.bytes / 1024)} KB over the wire, sign-in form shown after ${load.ms} ms`);
    expect(load.bytes).toBeGreaterThan(0);
    expect(load.bytes).toBeLessThan(300 * 1024);
    await page.context().close();
  });

  it('serves the console to browsers and the API to API clients on the same path', async () => {
    const page = await call('GET', '/publications', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const api = await call('GET', '/publications', { headers: { accept: 'application/json' } });
    expect(api.status).toBe(401);
    expect(api.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
