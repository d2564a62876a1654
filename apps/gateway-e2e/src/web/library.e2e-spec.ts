import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { call } from '../support/api.js';
import { expectNoAxeViolations, launchBrowser, PHONE } from '../support/browser.js';
import { expectAlertSaying, expectNoSideScrolling, openConsoleAs } from '../support/console-session.js';
import { uploadMedia } from '../support/media.js';
import { createTenant, joinWorkspace, type Tenant } from '../support/tenancy.js';

/** A real 2×2 PNG of one colour, so the thumbnail decodes; each colour is other bytes (the library deduplicates). */
function solidPng(red: number, green: number, blue: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const row = Buffer.from([0, red, green, blue, 255, red, green, blue, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat([row, row]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The media library in a real browser against the whole platform. */
describe('web console: media library', () => {
  let browser: Browser;
  let tenant: Tenant;

  beforeAll(async () => {
    browser = await launchBrowser();
    tenant = await createTenant();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('uploads an image with progress, tags it, filters by the tag, deletes it; a refused tag says why', async () => {
    const page = await openConsoleAs(browser, tenant.owner, '/media', 'Media');
    await page.getByText('The library is empty').waitFor();
    await expectNoAxeViolations(page);

    await page.getByLabel('Upload files').setInputFiles({ name: 'sunrise.png', mimeType: 'image/png', buffer: solidPng(255, 128, 0) });
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'sunrise.png' }) });
    await card.waitFor();
    await expect(card.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).resolves.toBe(2);
    const listed = await call('GET', `/media?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token });
    expect(listed.body.items.map((item: { filename: string }) => item.filename)).toEqual(['sunrise.png']);

    await page.getByLabel('New tag').fill('Mornings');
    await page.getByRole('button', { name: 'Add tag' }).click();
    // The box follows the saved item: it shows checked once the API has answered.
    await card.getByRole('checkbox', { name: 'Mornings' }).click();
    await page.getByRole('list', { name: 'Tags' }).getByText('Mornings (1)').waitFor();
    await expect(card.getByRole('checkbox', { name: 'Mornings' }).isChecked()).resolves.toBe(true);
    const tagged = await call('GET', `/media/${listed.body.items[0].id}`, { token: tenant.owner.token });
    expect(tagged.body.tag_ids).toHaveLength(1);

    // The same name again (ignoring case) is refused: the API's words, on the page.
    await page.getByLabel('New tag').fill('mornings');
    await page.getByRole('button', { name: 'Add tag' }).click();
    const duplicate = await call('POST', '/media/tags', {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId, name: 'MORNINGS' },
    });
    expect(duplicate.status).toBe(409);
    await expectAlertSaying(page, duplicate.body.detail);
    await expectNoAxeViolations(page);

    await uploadMedia(tenant.owner.token, tenant.workspaceId, solidPng(0, 128, 255), 'untagged.png');
    await page.getByLabel('Show').selectOption({ label: 'Tagged Mornings (1)' });
    await page.getByRole('heading', { name: 'sunrise.png' }).waitFor();
    await expect(page.getByRole('heading', { name: 'untagged.png' }).count()).resolves.toBe(0);

    await card.getByRole('button', { name: 'Delete' }).click();
    await card.getByRole('button', { name: 'Confirm: delete sunrise.png' }).click();
    await page.getByText('No item carries this tag').waitFor();
    const after = await call('GET', `/media?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token });
    expect(after.body.items.map((item: { filename: string }) => item.filename)).toEqual(['untagged.png']);
    await page.context().close();
  });

  it("a file the API refuses is reported beside its upload; an editor's library fits 360 px", async () => {
    const page = await openConsoleAs(browser, tenant.owner, '/media', 'Media', PHONE);
    const markup = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await page.getByLabel('Upload files').setInputFiles({ name: 'drawing.png', mimeType: 'image/png', buffer: markup });
    await page.getByRole('alert').filter({ hasText: 'drawing.png was not uploaded' }).waitFor();
    await expectNoSideScrolling(page);
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it('a viewer sees the library without upload, tag or delete controls, at 360 px without sideways scrolling', async () => {
    await uploadMedia(tenant.owner.token, tenant.workspaceId, solidPng(0, 200, 0), 'shared.png');
    const viewer = await joinWorkspace(tenant.owner, tenant.workspaceId, 'viewer');
    const page = await openConsoleAs(browser, viewer, '/media', 'Media', PHONE);
    await page.getByRole('heading', { name: 'shared.png' }).waitFor();
    await expect(page.getByLabel('Upload files').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
    await expect(page.getByLabel('New tag').count()).resolves.toBe(0);
    await expectNoSideScrolling(page);
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});
