import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { call, type TestUser } from '../support/api.js';
import {
  consoleUrl,
  expectNoAxeViolations,
  launchBrowser,
  newPage,
  PHONE,
  signInThroughUi,
  signUpThroughUi,
  type UiUser,
} from '../support/browser.js';
import { approveAtNetwork } from '../support/fake-network.js';
import { providerAppForSuite } from '../support/oauth-account.js';
import { joinWorkspace } from '../support/tenancy.js';

/** The Accounts area in a real browser: list, connect (sandbox, a refused network, OAuth through the callback page), disconnect. */
describe('web console: accounts', () => {
  const clientSecret = `th-secret-${randomUUID()}`;
  providerAppForSuite('threads', { clientId: `th-web-${randomUUID().slice(0, 8)}`, clientSecret });
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** The UI user's API identity (another session of the same person) and their workspace. */
  async function apiSession(user: UiUser): Promise<{ owner: TestUser; workspaceId: string }> {
    const login = await call('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    const owner = { ...user, token: login.body.access_token, refreshToken: login.body.refresh_token, id: login.body.user.id };
    const workspaces = await call('GET', '/workspaces', { token: owner.token });
    return { owner, workspaceId: workspaces.body.workspaces[0].id };
  }

  async function openAccounts(page: Page) {
    await page.getByRole('link', { name: 'Accounts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
  }

  it('connects a sandbox account and lists it, shows a refused connect in words, and disconnects', async () => {
    const page = await newPage(browser);
    const user = await signUpThroughUi(page);
    await openAccounts(page);
    await page.getByText('No account is connected yet.').waitFor();
    await expectNoAxeViolations(page);

    await page.getByLabel('Network').selectOption({ label: 'Sandbox' });
    await page.getByLabel('Handle').fill('web-sandbox');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const accounts = page.getByRole('list', { name: 'Connected accounts' });
    await accounts.getByText('Sandbox · @web-sandbox').waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Connected');
    await expectNoAxeViolations(page);

    // Mastodon needs a provider app for the server, which no administrator saved: the API's detail, in words.
    const { owner, workspaceId } = await apiSession(user);
    const refused = await call('POST', '/social-accounts/connect', {
      token: owner.token,
      body: { workspace_id: workspaceId, provider: 'mastodon', instance_url: 'https://mastodon.example' },
    });
    expect(refused.status).toBe(422);
    await page.getByLabel('Network').selectOption({ label: 'Mastodon' });
    await page.getByLabel('Server address').fill('https://mastodon.example');
    await page.getByRole('button', { name: 'Continue to Mastodon' }).click();
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain(refused.body.detail);
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: /^Disconnect / }).click();
    await page.getByRole('button', { name: /Yes, disconnect/ }).click();
    await page.getByText('No account is connected yet.').waitFor();
    const listed = await call('GET', `/social-accounts?workspace_id=${workspaceId}`, { token: owner.token });
    expect(listed.body.accounts).toEqual([]);
    await page.context().close();
  });

  it('connects through an OAuth network: off to the network, back on the callback page, listed', async () => {
    const page = await newPage(browser);
    await signUpThroughUi(page);
    await openAccounts(page);
    await page.getByLabel('Network').selectOption({ label: 'Threads' });
    // The console sends the browser to the network's authorization page; the person approves there.
    // The network's page stands in for the network: the fake network approves through its control API instead.
    const atConsole = (url: URL) => url.origin === new URL(consoleUrl()).origin;
    await page.route(
      (url) => !atConsole(url),
      (route) => route.fulfill({ contentType: 'text/html', body: '<title>Network</title>' }),
    );
    await page.getByRole('button', { name: 'Continue to Threads' }).click();
    await page.waitForURL((url) => !atConsole(url));
    const authorizationUrl = page.url();
    await page.unrouteAll();
    const userId = String(17_841_400_000_000_000n + BigInt(randomBytes(4).readUInt32BE()));
    const username = `ada_${randomBytes(4).toString('hex')}`;
    const token = `th-short-${randomUUID()}`;
    const code = await approveAtNetwork(authorizationUrl, {
      client_secret: clientSecret,
      access_token: token,
      token_response: { access_token: token, user_id: Number(userId) },
      profile: { id: userId, username, name: 'Ada', threads_profile_picture_url: 'https://scontent.example/ada.jpg' },
    });
    const state = new URL(authorizationUrl).searchParams.get('state') ?? '';
    // The network's redirect, to the console's callback page (the stack's redirect URI names 127.0.0.1; same page).
    await page.goto(consoleUrl(`/social-accounts/callback/threads?${new URLSearchParams({ code, state })}`));
    await page.getByText(`Connected Ada (@${username}) on Threads.`).waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Back to accounts' }).click();
    await page.getByRole('list', { name: 'Connected accounts' }).getByText(`Threads · @${username}`).waitFor();

    // A state is single use: opening the page again says so, in words.
    await page.goto(consoleUrl(`/social-accounts/callback/threads?${new URLSearchParams({ code, state })}`));
    await page.getByText('The account could not be connected.').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('query.state is unknown');
    await page.context().close();
  });

  it('is read-only for a viewer, and usable at 360 px', async () => {
    const ownerPage = await newPage(browser);
    const user = await signUpThroughUi(ownerPage);
    await ownerPage.context().close();
    const { owner, workspaceId } = await apiSession(user);
    const connected = await call('POST', '/social-accounts/connect', {
      token: owner.token,
      body: { workspace_id: workspaceId, provider: 'sandbox', username: 'shared-sandbox' },
    });
    expect(connected.status).toBe(201);
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');

    const page = await newPage(browser, PHONE);
    await signInThroughUi(page, viewer);
    await page.getByRole('heading', { level: 1, name: 'Calendar' }).waitFor();
    await page.goto(consoleUrl('/accounts'));
    await page.getByRole('list', { name: 'Connected accounts' }).getByText('Sandbox · @shared-sandbox').waitFor();
    await expect(page.getByRole('button', { name: /Disconnect/ }).count()).resolves.toBe(0);
    await expect(page.getByLabel('Network').count()).resolves.toBe(0);
    await page.getByText('connecting and disconnecting needs the editor or admin role').waitFor();
    await expectNoAxeViolations(page);
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(PHONE.width);
    await page.context().close();
  });
});
