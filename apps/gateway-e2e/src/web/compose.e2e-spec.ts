import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { sandboxAccountMetrics } from '@social/contracts';
import type { Browser, Page } from 'playwright-core';
import { call, eventually } from '../support/api.js';
import {
  consoleUrl,
  DESKTOP,
  expectNoAxeViolations,
  launchBrowser,
  newPage,
  PHONE,
  signInThroughUi,
  signUpThroughUi,
  type UiUser,
} from '../support/browser.js';
import { publicationWhen, publishNow, schedule, settled } from '../support/delivery.js';
import { sandboxExternalId } from '../support/insights.js';
import { jpegBytes } from '../support/publication-media.js';
import { connectSandboxAccount, createPublication } from '../support/publishing.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

/** Screenshots for the note when E2E_SCREENSHOTS names a folder. */
const SHOTS = process.env.E2E_SCREENSHOTS;
const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
const localInput = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n, d.getHours(), d.getMinutes());
const mondayOf = (d: Date) => addDays(new Date(d.getFullYear(), d.getMonth(), d.getDate()), -((d.getDay() + 6) % 7)).getTime();

/**
 * A day to schedule for at 10:00: tomorrow, or the Monday after when tomorrow is a Sunday, so that the day after it
 * is in the same calendar week (the drag moves the post there). `nextWeek`: the calendar must step one week on.
 */
function scheduleDay(): { day: Date; nextWeek: boolean } {
  const now = new Date();
  let day = addDays(new Date(now.getFullYear(), now.getMonth(), now.getDate(), 10, 0), 1);
  if (day.getDay() === 0) day = addDays(day, 1);
  return { day, nextWeek: mondayOf(day) !== mondayOf(now) };
}

async function apiToken(user: UiUser): Promise<{ token: string; workspaceId: string }> {
  const login = await call('POST', '/auth/login', { body: { email: user.email, password: user.password } });
  const workspaces = await call('GET', '/workspaces', { token: login.body.access_token });
  return { token: login.body.access_token, workspaceId: workspaces.body.workspaces[0].id };
}

async function openCalendarAt(page: Page, nextWeek: boolean) {
  await page.goto(consoleUrl('/calendar'));
  await page.getByRole('heading', { level: 1, name: 'Calendar' }).waitFor();
  if (nextWeek) await page.getByRole('button', { name: 'Next week' }).click();
}

/** Compose, calendar, publications and analytics in a real browser against the whole platform (issue 30's main flow). */
describe('web console: plan, compose, publish and measure', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    ['on a desktop', DESKTOP],
    ['at 360 px', PHONE],
  ])(
    'signs up, connects a sandbox account, composes with an image, previews, schedules, moves it on the calendar, ' +
      'publishes it now, sees it live and its numbers (%s)',
    async (label, viewport) => {
      const page = await newPage(browser, viewport);
      const user = await signUpThroughUi(page);
      const { token } = await apiToken(user);
      const handle = `web_${randomUUID().slice(0, 8)}`;
      const suffix = label === 'at 360 px' ? '-phone' : '';

      // Connect a sandbox account through the Accounts page.
      await page.goto(consoleUrl('/accounts'));
      await page.getByLabel('Network').selectOption({ label: 'Sandbox' });
      await page.getByLabel('Handle').fill(handle);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.getByRole('list', { name: 'Connected accounts' }).getByText(`@${handle}`).waitFor();

      // Compose with an image dropped in (uploaded through the signed upload), alt text, and a preview.
      await page.goto(consoleUrl('/compose'));
      await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
      await expectNoAxeViolations(page);
      const name = `Launch day ${randomUUID().slice(0, 6)}`;
      await page.getByLabel('Text').fill(`${name}\n\nEverything we shipped this week.`);
      await page
        .locator('input[type=file]')
        .setInputFiles({ name: 'launch.jpg', mimeType: 'image/jpeg', buffer: await jpegBytes(800, 600) });
      const altText = page.getByLabel('Alt text for launch.jpg');
      // A refused upload fails the test with the console's words, not only a missing field.
      await altText.or(page.getByRole('alert')).first().waitFor();
      expect(await page.getByRole('alert').allTextContents()).toEqual([]);
      await altText.fill('The team cheering in front of the release board');
      await page.getByRole('button', { name: 'Preview', exact: true }).click();
      const preview = page.getByRole('article', { name: new RegExp(`Preview for .*${handle}`) });
      await preview.getByText('Ready to send.').waitFor();
      await preview.getByText('alt text: “The team cheering in front of the release board”').waitFor();
      await expectNoAxeViolations(page);
      await shot(page, `composer-preview${suffix}`);

      // Schedule it.
      const { day, nextWeek } = scheduleDay();
      await page.getByLabel('Publish at').fill(localInput(day));
      await page.getByRole('button', { name: 'Schedule', exact: true }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      const id = new URL(page.url()).pathname.split('/').pop()!;
      const stored = (await call('GET', `/publications/${id}`, { token })).body;
      expect(stored).toMatchObject({ status: 'scheduled', scheduled_at: day.toISOString() });
      expect(stored.media).toEqual([expect.objectContaining({ alt_text: 'The team cheering in front of the release board' })]);
      await expectNoAxeViolations(page);

      // See it on the calendar; drag it to the next day, move it back with the keyboard's form; a refusal puts it back.
      await openCalendarAt(page, nextWeek);
      const post = page.locator(`[data-publication-id="${id}"]`);
      await page
        .locator(`[data-day="${dayKey(day)}"]`)
        .locator(`[data-publication-id="${id}"]`)
        .waitFor();
      await expectNoAxeViolations(page);
      await shot(page, `calendar-week${suffix}`);
      await post.dragTo(page.locator(`[data-day="${dayKey(addDays(day, 1))}"]`));
      await eventually(async () => {
        expect((await call('GET', `/publications/${id}`, { token })).body.scheduled_at).toBe(addDays(day, 1).toISOString());
      }, 10_000);
      await page
        .locator(`[data-day="${dayKey(addDays(day, 1))}"]`)
        .locator(`[data-publication-id="${id}"]`)
        .waitFor();

      await page.getByRole('button', { name: `Reschedule ${name}` }).click();
      await page.getByLabel(`New time for ${name}`).fill(localInput(day));
      await page.getByRole('button', { name: 'Move', exact: true }).click();
      await page
        .locator(`[data-day="${dayKey(day)}"]`)
        .locator(`[data-publication-id="${id}"]`)
        .waitFor();
      // The calendar shows the new time at once; the API's answer follows.
      await eventually(async () => {
        expect((await call('GET', `/publications/${id}`, { token })).body.scheduled_at).toBe(day.toISOString());
      }, 10_000);

      await page.getByRole('button', { name: `Reschedule ${name}` }).click();
      await page.getByLabel(`New time for ${name}`).fill(localInput(addDays(new Date(), -2)));
      await page.getByRole('button', { name: 'Move', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'could not be moved' }).waitFor();
      await page
        .locator(`[data-day="${dayKey(day)}"]`)
        .locator(`[data-publication-id="${id}"]`)
        .waitFor();
      expect((await call('GET', `/publications/${id}`, { token })).body.scheduled_at).toBe(day.toISOString());
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.getByRole('button', { name: 'Month' }).click();
      await expectNoAxeViolations(page);
      await shot(page, `calendar-month${suffix}`);

      // Publish it now from its page, and watch it go live.
      await page.goto(consoleUrl(`/publications/${id}`));
      await page.getByRole('button', { name: 'Publish now' }).click();
      await page.getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
      await page.getByRole('link', { name: 'See it on sandbox' }).waitFor();
      expect((await call('GET', `/publications/${id}`, { token })).body.status).toBe('published');
      await expectNoAxeViolations(page);

      await page.goto(consoleUrl('/publications'));
      await page.getByRole('link', { name }).waitFor();
      await expectNoAxeViolations(page);

      // Its numbers: ask the networks (the sandbox answers deterministic counters), then read them back.
      await page.goto(consoleUrl('/analytics'));
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
      await page.getByRole('button', { name: 'Fetch new numbers' }).click();
      const followers = sandboxAccountMetrics(sandboxExternalId(handle)).followers;
      await eventually(async () => {
        await page.getByRole('button', { name: 'Reload' }).click();
        await page.getByRole('table').filter({ hasText: 'Engagement' }).getByRole('link', { name }).waitFor({ timeout: 2_000 });
        const shown = await page.locator('.metric', { hasText: 'Followers' }).locator('.metric-value').textContent();
        expect(Number(shown?.replace(/\D/g, ''))).toBe(followers);
      }, 40_000);
      await page.getByRole('img', { name: 'Followers over time' }).waitFor();
      await expectNoAxeViolations(page);
      await shot(page, `analytics${suffix}`);
      if (viewport === PHONE) await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(PHONE.width);
      await page.context().close();
    },
  );

  it('shows a viewer the calendar, the post and analytics read-only at 360 px: no compose, schedule or drag controls', async () => {
    const { owner, workspaceId } = await createTenant();
    const account = await connectSandboxAccount(owner.token, workspaceId, `viewer_${randomUUID().slice(0, 8)}`);
    const { day, nextWeek } = scheduleDay();
    const planned = await createPublication(owner.token, workspaceId, { title: 'Planned for the viewer' });
    expect(
      (await schedule(owner.token, planned.id, { expected_revision: 1, scheduled_at: day.toISOString(), account_ids: [account.id] }))
        .status,
    ).toBe(200);
    const sent = await createPublication(owner.token, workspaceId, { title: 'Sent for the viewer' });
    expect((await publishNow(owner.token, sent.id, { expected_revision: 1, account_ids: [account.id] })).status).toBe(200);
    await publicationWhen(owner.token, sent.id, settled);
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');

    const page = await newPage(browser, PHONE);
    await signInThroughUi(page, viewer);
    await page.getByRole('heading', { level: 1, name: 'Calendar' }).waitFor();
    await page.getByRole('link', { name: 'Sent for the viewer' }).waitFor();
    if (nextWeek) await page.getByRole('button', { name: 'Next week' }).click();
    await page.getByRole('link', { name: 'Planned for the viewer' }).waitFor();
    await expect(page.getByRole('button', { name: /^Reschedule/ }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'New post' }).count()).resolves.toBe(0);
    await expect(page.locator('[draggable="true"]').count()).resolves.toBe(0);
    await expectNoAxeViolations(page);
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(PHONE.width);

    await page.goto(consoleUrl(`/publications/${planned.id}`));
    await page.getByRole('heading', { level: 1, name: 'Planned for the viewer' }).waitFor();
    await expect(
      page
        .getByRole('button')
        .filter({ hasText: /Publish now|Cancel schedule|Retry/ })
        .count(),
    ).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Edit' }).count()).resolves.toBe(0);
    await expectNoAxeViolations(page);

    await page.goto(consoleUrl('/compose'));
    await page.getByText("Viewers read this workspace's posts but cannot write them.").waitFor();
    await expect(page.locator('textarea').count()).resolves.toBe(0);
    await expectNoAxeViolations(page);

    await page.goto(consoleUrl('/analytics'));
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    await page.getByRole('button', { name: 'Reload' }).waitFor();
    await expect(page.getByRole('button', { name: 'Fetch new numbers' }).count()).resolves.toBe(0);
    await expectNoAxeViolations(page);
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(PHONE.width);
    await page.context().close();
  });
});
