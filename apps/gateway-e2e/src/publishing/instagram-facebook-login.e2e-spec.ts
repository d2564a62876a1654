import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FakeInstagramMedia, FakeInstagramRequest } from '@social/testing';
import { waitFor } from '@social/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { adminCall, registerAdmin } from '../support/admin.js';
import { call } from '../support/api.js';
import { publicationWhen, publishNow, settled } from '../support/delivery.js';
import { fakeControl } from '../support/fake-control.js';
import { approveAtNetwork } from '../support/fake-network.js';
import { providerAppForSuite } from '../support/oauth-account.js';
import { patchPublication, uploadImage } from '../support/publication-media.js';
import { createPublication } from '../support/publishing.js';
import { createTenant, type Tenant } from '../support/tenancy.js';

/** The fake Instagram API global setup starts; it serves Facebook Login's token trade and /me/accounts too. */
const instagram = fakeControl('E2E_FAKE_INSTAGRAM_URL', 'the fake Instagram API');
const FACEBOOK_LOGIN_SCOPES =
  'instagram_basic,instagram_content_publish,instagram_manage_comments,instagram_manage_insights,pages_show_list,pages_read_engagement';

/**
 * Instagram through Facebook Login, end to end: with the instance setting `instagram_facebook_login` on, connect sends
 * the person to Facebook's dialog, and the callback connects every professional account linked to their Pages (each
 * holding its Page's token); publishing to one goes to graph.facebook.com's paths with that Page's token.
 */
describe('publishing: instagram through facebook login (instagram_facebook_login on)', () => {
  const clientSecret = `igfb-secret-${randomUUID()}`;
  providerAppForSuite('instagram', { clientId: `igfb-${randomUUID().slice(0, 8)}`, clientSecret });

  const saveSetting = async (setting: Record<string, unknown>) => {
    const admin = await registerAdmin();
    const saved = await adminCall('PUT', '/admin/instance-settings', { token: admin.token, body: { settings: [setting] } });
    expect(saved.status).toBe(200);
  };
  const startConnect = async (tenant: Tenant) => {
    const started = await call('POST', '/social-accounts/connect', {
      token: tenant.owner.token,
      body: { workspace_id: tenant.workspaceId, provider: 'instagram' },
    });
    expect(started.status).toBe(200);
    return { started, url: new URL(started.body.authorization_url) };
  };

  // Nested, so the setting is back off before the suite's provider app is deleted (its hooks run after these).
  describe('connect and publish', () => {
    beforeAll(async () => {
      await saveSetting({ key: 'instagram_facebook_login', value: 'true' });
      const tenant = await createTenant();
      await waitFor(
        'publishing to apply instagram_facebook_login',
        async () => (await startConnect(tenant)).url.hostname === 'www.facebook.com',
        15_000,
      );
    });

    afterAll(async () => {
      await saveSetting({ key: 'instagram_facebook_login', unset: true });
      // The suites after this one connect Instagram through Instagram Login: back to it before going on.
      const tenant = await createTenant();
      await waitFor(
        'publishing to apply instagram_facebook_login off',
        async () => (await startConnect(tenant)).url.hostname === 'www.instagram.com',
        15_000,
      );
    });

    /** Connect, approval at the OAuth fake as the Facebook user `personId`, and the callback. */
    async function connect(tenant: Tenant, personId: string) {
      const { started, url } = await startConnect(tenant);
      expect(`${url.origin}${url.pathname}`).toBe('https://www.facebook.com/v27.0/dialog/oauth');
      expect(url.searchParams.get('scope')).toBe(FACEBOOK_LOGIN_SCOPES);
      const code = await approveAtNetwork(started.body.authorization_url, {
        client_secret: clientSecret,
        access_token: `fb-short-${randomUUID()}`,
        profile: { id: personId, name: 'Ada Lovelace' },
      });
      return call('GET', `/social-accounts/callback/instagram?${new URLSearchParams({ code, state: started.body.state })}`, {
        token: tenant.owner.token,
      });
    }

    it('connects the accounts of two Pages (not the third, unlinked), posts with its Page token, reconnects to the same ids', async () => {
      const tenant = await createTenant();
      const personId = String(20_000_000 + randomBytes(3).readUIntBE(0, 3));
      const tag = randomBytes(4).toString('hex');
      const registered = await instagram('POST', '/facebook-users', {
        id: personId,
        name: 'Ada Lovelace',
        pages: [
          { name: 'Engines', access_token: `page-a-${randomUUID()}`, instagram: { username: `engines.${tag}`, name: 'Engines' } },
          { name: 'No Instagram', access_token: `page-b-${randomUUID()}` },
          { name: 'Looms', access_token: `page-c-${randomUUID()}`, instagram: { username: `looms.${tag}`, name: 'Looms' } },
        ],
      });
      const [pageA, , pageC] = registered.pages as Array<{ id: string; instagram?: { id: string } }>;

      const connected = await connect(tenant, personId);
      expect(connected.status).toBe(201);
      expect(connected.body).toMatchObject({
        platform: 'instagram',
        username: `engines.${tag}`,
        display_name: 'Engines',
        status: 'active',
      });
      const listed = async () =>
        ((await call('GET', `/social-accounts?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token })).body.accounts as any[])
          .filter((account) => account.platform === 'instagram')
          .map((account) => ({ id: account.id, username: account.username }))
          .sort((a, b) => a.username.localeCompare(b.username));
      const accounts = await listed();
      expect(accounts.map((account) => account.username)).toEqual([`engines.${tag}`, `looms.${tag}`]);
      const looms = accounts.find((account) => account.username === `looms.${tag}`)!;

      // An image post through the second account: the containers and media_publish carry the Looms Page's token.
      await instagram('DELETE', '/requests');
      const text = `Via Facebook Login ${randomUUID()}`;
      const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: text });
      const image = await uploadImage(tenant.owner.token, tenant.workspaceId, 1080, 1080);
      const patched = await patchPublication(tenant.owner.token, draft.id, {
        expected_revision: draft.revision,
        media: [{ media_id: image.id }],
      });
      expect(patched.status).toBe(200);
      const started = await publishNow(tenant.owner.token, draft.id, { expected_revision: patched.body.revision, account_ids: [looms.id] });
      expect(started.status).toBe(200);
      const publication = await publicationWhen(tenant.owner.token, draft.id, settled, 30_000);
      expect(publication.status).toBe('published');
      const posts = ((await instagram('GET', '/posts')) as FakeInstagramMedia[]).filter((post) => post.account_id === pageC.instagram!.id);
      expect(posts).toEqual([expect.objectContaining({ caption: expect.stringContaining(text), media_type: 'IMAGE' })]);
      expect(publication.renditions[0]).toMatchObject({ status: 'published', external_id: posts[0].id });
      const publishCalls = ((await instagram('GET', '/requests')) as FakeInstagramRequest[]).filter(
        (request) => request.path === `/v27.0/${pageC.instagram!.id}/media_publish`,
      );
      expect(publishCalls.map((request) => request.token_of)).toEqual([`page:${pageC.id}`]);
      expect(pageA.instagram).toBeDefined();

      // Connecting again updates the same two accounts (200, the first answered).
      const again = await connect(tenant, personId);
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(connected.body.id);
      expect(await listed()).toEqual(accounts);

      // Another tenant sees neither account.
      const intruder = await createTenant();
      for (const account of accounts) {
        expect([403, 404]).toContain((await call('GET', `/social-accounts/${account.id}`, { token: intruder.owner.token })).status);
      }
    });
  });
});
