import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { expectNoAxeViolations, launchBrowser, newPage, PHONE, signUpThroughUi } from '../support/browser.js';

/** Passkeys on the Security page and on the sign-in page, with Chromium's virtual authenticator (WebAuthn over CDP). */
describe('web console: security', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** A platform authenticator that holds resident keys and verifies the user without asking. */
  async function addVirtualAuthenticator(page: Page) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  }

  async function openSecurity(page: Page) {
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
  }

  it('adds a passkey after confirming the password, signs in with it, and removes it', async () => {
    const page = await newPage(browser);
    await addVirtualAuthenticator(page);
    const user = await signUpThroughUi(page);
    await openSecurity(page);
    await page.getByText('No passkey yet.').waitFor();
    await expectNoAxeViolations(page);

    // A wrong password is refused before the device is asked; the problem is said in words.
    await page.getByLabel('Name').fill('Laptop');
    await page.getByLabel('Your password').fill('not my password at all');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(page.getByRole('alert').first().textContent()).resolves.toMatch(/\w+/);

    await page.getByLabel('Your password').fill(user.password);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const passkeys = page.getByRole('list', { name: 'Passkeys' });
    await passkeys.getByText('Laptop', { exact: true }).waitFor();
    await expect(page.getByText('Added the passkey Laptop.').isVisible()).resolves.toBe(true);
    await expect(page.getByText('Sign-in methods').locator('xpath=following-sibling::p[1]').textContent()).resolves.toContain('Passkey');
    await expectNoAxeViolations(page);

    // Signed out, the passkey signs the person in: no email, no password.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Calendar' }).waitFor();

    await openSecurity(page);
    await passkeys.getByRole('button', { name: 'Remove the passkey Laptop' }).click();
    await page.getByText('No passkey yet.').waitFor();
    await page.context().close();
  });

  it('passes axe at 360 px', async () => {
    const page = await newPage(browser, PHONE);
    await signUpThroughUi(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    await openSecurity(page);
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});
