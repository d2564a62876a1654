import { expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { baseUrl, PASSWORD, randomIp, uniqueEmail } from './api.js';

/**
 * The web console in Debian's Chromium (`.ci/run` installs it; no browser is ever downloaded), driven by
 * playwright-core. Flags as the machine notes give them: without the background-networking ones Chromium keeps
 * trying hosts this closed network refuses. Playwright gives each launch a fresh, empty profile.
 */
const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 740 };

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/**
 * The console's address: the stack's, by the name `localhost` rather than 127.0.0.1, because WebAuthn takes a
 * domain, never an IP address, as its relying party (the e2e stack's passkey relying party is `localhost`).
 */
export function consoleUrl(path = '/'): string {
  const url = new URL(baseUrl());
  url.hostname = 'localhost';
  return new URL(path, url).toString();
}

/**
 * A new page in a context of its own (its own storage: a fresh visitor) at `viewport`. Its requests reach the
 * gateway through loopback, which the e2e stack trusts as a proxy: each context tells its own client address,
 * so per-address limits (registrations, failed sign-ins) bite only where a test means them to.
 */
export async function newPage(browser: Browser, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  // A failing page says why in the test's output, not only as a missing element.
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  return page;
}

export interface UiUser {
  email: string;
  password: string;
}

/** Signs up through the console's form and sets up an organization and its first workspace through the onboarding. */
export async function signUpThroughUi(page: Page, { name = 'Ada Tester', workspace = 'Main' } = {}): Promise<UiUser> {
  const user = { email: uniqueEmail('web'), password: PASSWORD };
  await page.goto(consoleUrl('/sign-up'));
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('Organization name').fill(`${name}'s organization`);
  await page.getByLabel('Workspace name').fill(workspace);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByRole('heading', { level: 1, name: 'Calendar' }).waitFor();
  return user;
}

export async function signInThroughUi(page: Page, user: UiUser): Promise<void> {
  await page.goto(consoleUrl('/sign-in'));
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const AXE_SOURCE = readFileSync(join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * axe-core over the page as it is now, at WCAG 2.0/2.1 levels A and AA: fails listing every violation readably.
 * Injected through evaluate (the console's CSP refuses inline scripts, rightly).
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const options = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } };
  const violations = (await page.evaluate(
    `axe.run(document, ${JSON.stringify(options)}).then((result) => result.violations)`,
  )) as AxeViolation[];
  const readable = violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n` +
      violation.nodes.map((node) => `    at ${node.target.join(' ')}: ${node.failureSummary ?? ''}`.replace(/\n/g, ' ')).join('\n'),
  );
  expect({ url: page.url(), violations: readable }).toEqual({ url: page.url(), violations: [] });
}
