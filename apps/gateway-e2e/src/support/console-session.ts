import { expect } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { baseUrl } from './api.js';
import { DESKTOP, newPage } from './browser.js';

/**
 * The console at the stack's own address (127.0.0.1, its PUBLIC_BASE_URL), signed in as `user` through the form,
 * on `path`. Not at `localhost` (consoleUrl) as the passkey suites need: the signed upload URLs the API hands out
 * are on PUBLIC_BASE_URL, and the gateway allows no other origin to send bytes to them (no CORS).
 */
export async function openConsoleAs(
  browser: Browser,
  user: { email: string; password: string },
  path: string,
  heading: string,
  viewport = DESKTOP,
): Promise<Page> {
  const page = await newPage(browser, viewport);
  await page.goto(`${baseUrl()}/sign-in?next=${encodeURIComponent(path)}`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  return page;
}

/** Moves within the signed-in console (the session survives a reload: it is in sessionStorage). */
export async function visit(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(`${baseUrl()}${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Nothing overflows the narrow screen sideways. */
export async function expectNoSideScrolling(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(width);
}

/** The alert the page shows holds the API's own words for the same refusal. */
export async function expectAlertSaying(page: Page, detail: string): Promise<void> {
  expect(detail).toBeTruthy();
  await page.getByRole('alert').filter({ hasText: detail }).first().waitFor();
}
