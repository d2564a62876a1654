import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@social/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { adminCall, registerAdmin } from '../support/admin.js';
import { call } from '../support/api.js';
import { deliveries, publicationWhen, publishNow, settled } from '../support/delivery.js';
import {
  clearLinkedInFailures,
  failNextAtLinkedIn,
  linkedinAppForSuite,
  linkedinMember,
  linkedinOrganization,
  linkedinPosts,
} from '../support/fake-linkedin.js';
import { approveAtNetwork } from '../support/fake-network.js';
import { connectThroughOAuth } from '../support/oauth-account.js';
import { createPublication } from '../support/publishing.js';
import { createTenant, Tenant } from '../support/tenancy.js';

const POSTS = '/rest/posts';

/**
 * Publishing to LinkedIn end to end (issue 26, "Done when"): a member connected through the OAuth flow against
 * the fakes, a post made through the REST Posts API at the fake LinkedIn, and a rate-limited publish that goes
 * live once LinkedIn's wait is over, exactly once.
 */
describe('publishing: delivery to linkedin (engine + adapter against the fake LinkedIn)', () => {
  const { clientSecret } = linkedinAppForSuite('deliver');

  afterEach(async () => {
    await clearLinkedInFailures();
  });

  /**
   * A member connected through the OAuth flow: the code is traded and userinfo answered at the OAuth fake (the
   * fake LinkedIn passes them on), and the fake LinkedIn knows the access token as the member's.
   */
  async function connectLinkedIn(tenant: Tenant) {
    const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
    const personId = `p${randomBytes(5).toString('hex')}`;
    const name = `Ada ${randomBytes(3).toString('hex')}`;
    const { account } = await connectThroughOAuth(tenant, 'linkedin', {
      client_secret: clientSecret,
      ...tokens,
      profile: { sub: personId, name, picture: 'https://media.licdn.com/ada.jpg' },
    });
    expect(account).toMatchObject({ platform: 'linkedin', username: name, display_name: name, status: 'active' });
    await linkedinMember({ access_token: tokens.access_token, person_id: personId, name });
    return { account, author: `urn:li:person:${personId}` };
  }

  async function publishTo(tenant: Tenant, publication: any, accountId: string, timeoutMs = 30_000) {
    const started = await publishNow(tenant.owner.token, publication.id, {
      expected_revision: publication.revision,
      account_ids: [accountId],
    });
    expect(started.status).toBe(200);
    const done = await publicationWhen(tenant.owner.token, publication.id, settled, timeoutMs);
    return { publication: done, rendition: done.renditions[0] };
  }

  const postsBy = async (author: string) => (await linkedinPosts()).filter((post) => post.author === author);

  it('connects a member through OAuth and publishes once: the rendition carries the URN and feed URL LinkedIn gave', async () => {
    const tenant = await createTenant();
    const { account, author } = await connectLinkedIn(tenant);
    const text = `Shipping LinkedIn (at last) #delivery ${randomUUID()}`;
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: text });
    const { publication, rendition } = await publishTo(tenant, draft, account.id);

    const posts = await postsBy(author);
    expect(posts).toHaveLength(1);
    const [post] = posts;
    // What LinkedIn shows: the little text's reserved characters were escaped, so nothing was cut.
    expect(post.text).toContain(text);
    expect(post).toMatchObject({ visibility: 'PUBLIC', lifecycle_state: 'PUBLISHED', media: [] });
    expect(publication.status).toBe('published');
    expect(rendition).toMatchObject({
      platform: 'linkedin',
      status: 'published',
      external_id: post.id,
      external_url: `https://www.linkedin.com/feed/update/${post.id}/`,
      error_code: '',
    });
    expect(rendition.delivery).toMatchObject({ state: 'live', current_attempt_number: 1, external_id: post.id });
  });

  it('a rate-limited LinkedIn publish goes live after the reset: the 429 attempt is listed as a retry, one post', async () => {
    const tenant = await createTenant();
    const { account, author } = await connectLinkedIn(tenant);
    await failNextAtLinkedIn({
      path: POSTS,
      method: 'POST',
      status: 429,
      headers: { 'retry-after': '2' },
      body: { status: 429, message: 'Resource level throttle MEMBER DAY limit for calls to this resource is reached.' },
    });
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Busy network ${randomUUID()}` });
    const { publication, rendition } = await publishTo(tenant, draft, account.id);

    expect(publication.status).toBe('published');
    expect(rendition).toMatchObject({ status: 'published', error_code: '', delivery: expect.objectContaining({ state: 'live' }) });
    const attempts = (await deliveries(tenant.owner.token, publication.id)).body.attempts;
    expect(attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'retry', error_code: 'provider_rate_limited', http_status: 429 }),
      expect.objectContaining({ attempt: 2, outcome: 'live', error_code: '', http_status: 0 }),
    ]);
    expect(Date.parse(attempts[1].started_at) - Date.parse(attempts[0].finished_at)).toBeGreaterThanOrEqual(2_000);
    const posts = await postsBy(author);
    expect(posts).toHaveLength(1);
    expect(rendition.external_id).toBe(posts[0].id);
  });

  /**
   * With `linkedin_organization_pages` on (the app has the Community Management API), connecting a member who
   * administers a page connects the page too, as an account of its own. The setting is live: publishing applies it
   * once the admin service announces the change, seen here in the scopes connect asks for.
   */
  describe('organization pages (linkedin_organization_pages on)', () => {
    const saveSetting = async (setting: Record<string, unknown>) => {
      const admin = await registerAdmin();
      const saved = await adminCall('PUT', '/admin/instance-settings', { token: admin.token, body: { settings: [setting] } });
      expect(saved.status).toBe(200);
    };
    const askedScopes = async (tenant: Tenant) => {
      const started = await call('POST', '/social-accounts/connect', {
        token: tenant.owner.token,
        body: { workspace_id: tenant.workspaceId, provider: 'linkedin' },
      });
      expect(started.status).toBe(200);
      return { started, scopes: new URL(started.body.authorization_url).searchParams.get('scope') ?? '' };
    };

    beforeAll(async () => {
      await saveSetting({ key: 'linkedin_organization_pages', value: 'true' });
      const tenant = await createTenant();
      await waitFor(
        'publishing to apply linkedin_organization_pages',
        async () => (await askedScopes(tenant)).scopes.includes('r_organization_admin'),
        15_000,
      );
    });

    afterAll(async () => {
      await saveSetting({ key: 'linkedin_organization_pages', unset: true });
      // The suites after this one expect LinkedIn's member scopes again: back to them before going on.
      const tenant = await createTenant();
      await waitFor(
        'publishing to apply linkedin_organization_pages off',
        async () => !(await askedScopes(tenant)).scopes.includes('r_organization_admin'),
        15_000,
      );
    });

    /** Connects through OAuth as `personId`, known to the fake LinkedIn (with its pages) before the callback reads them. */
    async function connectAdministrator(tenant: Tenant, personId: string, name: string) {
      const { started, scopes } = await askedScopes(tenant);
      expect(scopes).toBe('openid profile w_member_social w_organization_social r_organization_admin r_organization_social');
      const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
      const code = await approveAtNetwork(started.body.authorization_url, {
        client_secret: clientSecret,
        ...tokens,
        profile: { sub: personId, name },
      });
      await linkedinMember({ access_token: tokens.access_token, person_id: personId, name });
      return call('GET', `/social-accounts/callback/linkedin?${new URLSearchParams({ code, state: started.body.state })}`, {
        token: tenant.owner.token,
      });
    }

    it(
      'connect answers the member and connects the page as a second account; ' +
        'a post to it is authored by the page; connecting again keeps the ids',
      async () => {
        const tenant = await createTenant();
        const personId = `p${randomBytes(5).toString('hex')}`;
        const name = `Ada ${randomBytes(3).toString('hex')}`;
        const organizationId = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
        const vanity = `acme-${randomBytes(3).toString('hex')}`;
        await linkedinOrganization({
          id: organizationId,
          localized_name: 'Acme Analytics',
          vanity_name: vanity,
          followers: 12,
          administrators: [personId],
        });

        const connected = await connectAdministrator(tenant, personId, name);
        expect(connected.status).toBe(201);
        expect(connected.body).toMatchObject({ platform: 'linkedin', username: name, display_name: name, status: 'active' });
        const listed = async () =>
          (await call('GET', `/social-accounts?workspace_id=${tenant.workspaceId}`, { token: tenant.owner.token })).body.accounts as any[];
        const accounts = await listed();
        expect(accounts).toHaveLength(2);
        const pageAccount = accounts.find((account) => account.id !== connected.body.id);
        expect(pageAccount).toMatchObject({ platform: 'linkedin', username: vanity, display_name: 'Acme Analytics', status: 'active' });

        const text = `From the page ${randomUUID()}`;
        const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: text });
        const { publication, rendition } = await publishTo(tenant, draft, pageAccount.id);
        expect(publication.status).toBe('published');
        const posts = await postsBy(`urn:li:organization:${organizationId}`);
        expect(posts).toHaveLength(1);
        expect(posts[0].text).toContain(text);
        expect(rendition).toMatchObject({ status: 'published', external_id: posts[0].id });
        expect(await postsBy(`urn:li:person:${personId}`)).toEqual([]);

        const again = await connectAdministrator(tenant, personId, name);
        expect(again.status).toBe(200);
        expect(again.body.id).toBe(connected.body.id);
        expect((await listed()).map((account) => account.id).sort()).toEqual([connected.body.id, pageAccount.id].sort());
      },
    );
  });
});
