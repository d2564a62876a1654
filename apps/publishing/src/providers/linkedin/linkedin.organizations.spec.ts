import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { callControl, FakeLinkedIn, FakeLinkedInPost, startFakeLinkedIn } from '@social/testing';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderError } from '../provider-error.js';
import { ProviderHttp, type FetchFunction } from '../provider-http.js';
import { DeliveryError, type OutgoingPost, type ProviderAccount } from '../social-provider.js';
import { LinkedInNetwork } from './linkedin.network.js';
import { authorUrn, LINKEDIN_VERSION, LinkedInProvider } from './linkedin.provider.js';

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
}

const client = { clientId: 'li-client', clientSecret: 'li-secret', instanceUrl: '' };
const PERSON = 'p0rgadmin';

/**
 * LinkedIn organization pages (Community Management API) against the fake LinkedIn: the identities a grant covers
 * when the instance has the product, posting as a page, and a page's follower count and post statistics.
 */
describe('LinkedIn organization pages (against a fake LinkedIn)', () => {
  let fake: FakeLinkedIn;
  let provider: LinkedInProvider;
  let token: string;
  const sent: Sent[] = [];

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const organization = (id: string, administrators = [PERSON], followers = 0) =>
    control('POST', '/organizations', {
      id,
      localized_name: `Org ${id}`,
      vanity_name: `org-${id}`,
      followers,
      administrators,
    });
  const page = (id: string): ProviderAccount => ({
    id: randomUUID(),
    platform: 'linkedin',
    externalId: `urn:li:organization:${id}`,
    username: `org-${id}`,
    instanceUrl: '',
    grant: { accessToken: token },
  });
  const post = (text: string): OutgoingPost => ({ marker: randomUUID(), parts: [outgoingPart(text)] });
  const recording: FetchFunction = async (input, init) => {
    const headers = Object.fromEntries(
      Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    sent.push({ method: String(init?.method), url: String(input), headers });
    return fetch(input, init);
  };
  const rejection = async (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );

  beforeAll(async () => {
    fake = await startFakeLinkedIn();
    provider = new LinkedInProvider(new LinkedInNetwork(), new ProviderHttp({ linkedin: fake.origin }, undefined, recording), 2_000);
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
    sent.length = 0;
    token = `tok-${randomUUID()}`;
    await control('POST', '/accounts', { access_token: token, person_id: PERSON, name: 'Ada Lovelace' });
  });

  afterAll(async () => {
    await fake?.stop();
  });

  describe('identities', () => {
    it('without the extension: the member alone, and nothing asked of the Community Management API', async () => {
      await organization('1001');
      const identities = await provider.fetchIdentities(client, { accessToken: token }, AbortSignal.timeout(2_000), { extension: false });
      expect(identities).toEqual([expect.objectContaining({ externalId: PERSON, displayName: 'Ada Lovelace' })]);
      expect(sent.map((call) => new URL(call.url).pathname)).toEqual(['/v2/userinfo']);
    });

    it('with it: the member first, then each page it administers in LinkedIn order, named by its lookup', async () => {
      await organization('2002');
      await organization('1001');
      await organization('3003', ['someone-else']);
      const identities = await provider.fetchIdentities(client, { accessToken: token }, AbortSignal.timeout(2_000), { extension: true });
      expect(identities).toEqual([
        expect.objectContaining({ externalId: PERSON, username: 'Ada Lovelace' }),
        { externalId: 'urn:li:organization:2002', username: 'org-2002', displayName: 'Org 2002', avatarUrl: '' },
        { externalId: 'urn:li:organization:1001', username: 'org-1001', displayName: 'Org 1001', avatarUrl: '' },
      ]);
      const acls = sent.find((call) => new URL(call.url).pathname === '/rest/organizationAcls')!;
      expect(Object.fromEntries(new URL(acls.url).searchParams)).toEqual({
        q: 'roleAssignee',
        role: 'ADMINISTRATOR',
        state: 'APPROVED',
        start: '0',
        count: '100',
      });
      expect(acls.headers).toMatchObject({
        authorization: `Bearer ${token}`,
        'linkedin-version': LINKEDIN_VERSION,
        'x-restli-protocol-version': '2.0.0',
      });
      expect(sent.filter((call) => /^\/rest\/organizations\/\d+$/.test(new URL(call.url).pathname))).toHaveLength(2);
    });

    it('reads every page of roles: a member administering 101 pages gets them all, in two finder calls', async () => {
      for (let id = 1; id <= 101; id++) await organization(String(5000 + id));
      const identities = await provider.fetchIdentities(client, { accessToken: token }, AbortSignal.timeout(10_000), { extension: true });
      expect(identities).toHaveLength(102);
      expect(new Set(identities.map((identity) => identity.externalId)).size).toBe(102);
      const starts = sent
        .filter((call) => new URL(call.url).pathname === '/rest/organizationAcls')
        .map((call) => new URL(call.url).searchParams.get('start'));
      expect(starts).toEqual(['0', '100']);
    });

    it("a page's username falls back to the id, and its name to the vanity name, when LinkedIn gives none", async () => {
      await control('POST', '/organizations', { id: '4004', localized_name: '', vanity_name: '', administrators: [PERSON] });
      const [, identity] = await provider.fetchIdentities(client, { accessToken: token }, AbortSignal.timeout(2_000), { extension: true });
      expect(identity).toEqual({ externalId: 'urn:li:organization:4004', username: '4004', displayName: '4004', avatarUrl: '' });
    });

    it('a grant without r_organization_admin is refused by LinkedIn (403 ACCESS_DENIED): a refusal, not a member alone', async () => {
      await control('POST', '/accounts', { access_token: token, person_id: PERSON, scopes: ['openid', 'profile', 'w_member_social'] });
      const error = await rejection(
        provider.fetchIdentities(client, { accessToken: token }, AbortSignal.timeout(2_000), { extension: true }),
      );
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ failure: 'refused', networkCode: 'ACCESS_DENIED', call: { status: 403 } });
    });
  });

  describe('posting as a page', () => {
    it("the page's URN is the author of the post and the owner of its media", async () => {
      await organization('1001');
      const account = page('1001');
      expect(authorUrn(account)).toBe('urn:li:organization:1001');
      const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#246' } })
        .png()
        .toBuffer();
      const published = await provider.publish(account, {
        marker: randomUUID(),
        parts: [outgoingPart('From the page', { media: [outgoingMedia(bytes, 'image/png')] })],
      });
      const [stored] = (await control('GET', '/posts')) as FakeLinkedInPost[];
      expect(stored).toMatchObject({ id: published.externalId, author: 'urn:li:organization:1001', text: 'From the page' });
      const media = (await control('GET', '/media')) as Array<{ owner: string }>;
      expect(media.map((item) => item.owner)).toEqual(['urn:li:organization:1001']);
    });

    it('a page the member no longer administers: LinkedIn answers 403, rejected as auth (connect again)', async () => {
      await organization('1001', ['someone-else']);
      const error = await rejection(provider.publish(page('1001'), post('Not mine')));
      expect(error).toBeInstanceOf(DeliveryError);
      expect((error as DeliveryError).failure).toMatchObject({ outcome: 'rejected', kind: 'auth', httpStatus: 403 });
      expect(await control('GET', '/posts')).toEqual([]);
    });

    it("a lost answer for a page's post cannot be reconciled without r_organization_social: unknown, not a resend", async () => {
      await organization('1001');
      await control('POST', '/accounts', {
        access_token: token,
        person_id: PERSON,
        scopes: ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_admin'],
      });
      expect(await provider.findPost(page('1001'), post('Lost'), new Date())).toBe('unknown');
    });

    it("finds a page's post whose answer was lost among the page's posts (r_organization_social)", async () => {
      await organization('1001');
      const since = new Date();
      const lost = post('Lost answer of a page');
      await control('POST', '/failures', { path: '/rest/posts', method: 'POST', drop_after_handling: true });
      await expect(provider.publish(page('1001'), lost)).rejects.toMatchObject({ failure: { outcome: 'ambiguous' } });
      const [created] = await control('GET', '/posts');
      expect(await provider.findPost(page('1001'), lost, since)).toMatchObject({ externalId: created.id });
    });
  });

  describe('metrics', () => {
    it("a page's followers from networkSizes (its URN encoded in the path); following and posts are 0", async () => {
      await organization('1001', [PERSON], 4_321);
      expect(await provider.fetchAccountMetrics(page('1001'))).toEqual({ followers: 4_321, following: 0, posts: 0 });
      const [call] = sent;
      expect(call.url).toBe(`${fake.origin}/rest/networkSizes/urn%3Ali%3Aorganization%3A1001?edgeType=COMPANY_FOLLOWED_BY_MEMBER`);
      expect(call.headers).toMatchObject({ 'linkedin-version': LINKEDIN_VERSION, 'x-restli-protocol-version': '2.0.0' });
    });

    it("a page's post statistics: impressions as views, likes, comments, shares as reposts, in the order asked", async () => {
      await organization('1001');
      const first = await provider.publish(page('1001'), post('First'));
      const second = await provider.publish(page('1001'), post('Second'));
      await control('POST', '/statistics', {
        post_id: first.externalId,
        impressionCount: 120,
        likeCount: 7,
        commentCount: 2,
        shareCount: 1,
      });
      sent.length = 0;
      const metrics = await provider.fetchPostMetrics(page('1001'), [second.externalId, first.externalId]);
      expect(metrics).toEqual([
        { externalId: second.externalId, views: 0, likes: 0, comments: 0, reposts: 0 },
        { externalId: first.externalId, views: 120, likes: 7, comments: 2, reposts: 1 },
      ]);
      const [call] = sent;
      const list = [second.externalId, first.externalId].map((id) => encodeURIComponent(id)).join(',');
      expect(call.url).toBe(
        `${fake.origin}/rest/organizationalEntityShareStatistics?q=organizationalEntity` +
          `&organizationalEntity=urn%3Ali%3Aorganization%3A1001&shares=List(${list})`,
      );
      expect(sent).toHaveLength(1);
    });

    it('shares and ugcPosts are asked in calls of their own; posts LinkedIn does not answer for are left out', async () => {
      const urls: string[] = [];
      const answering: FetchFunction = async (input) => {
        const url = new URL(String(input));
        urls.push(url.toString());
        const kind = url.searchParams.has('shares') ? 'share' : 'ugcPost';
        const id = kind === 'share' ? 'urn:li:share:11' : 'urn:li:ugcPost:22';
        const element = {
          organizationalEntity: 'urn:li:organization:1001',
          [kind]: id,
          totalShareStatistics: { impressionCount: 5, likeCount: 1 },
        };
        return new Response(JSON.stringify({ paging: { start: 0, count: 1 }, elements: [element] }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      };
      const stubbed = new LinkedInProvider(
        new LinkedInNetwork(),
        new ProviderHttp({ linkedin: 'http://127.0.0.1:9' }, undefined, answering),
        2_000,
      );
      const metrics = await stubbed.fetchPostMetrics(page('1001'), ['urn:li:ugcPost:22', 'urn:li:share:11', 'urn:li:share:12']);
      expect(metrics).toEqual([
        { externalId: 'urn:li:ugcPost:22', views: 5, likes: 1, comments: 0, reposts: 0 },
        { externalId: 'urn:li:share:11', views: 5, likes: 1, comments: 0, reposts: 0 },
      ]);
      expect(urls.map((url) => [...new URL(url).searchParams.keys()].at(-1))).toEqual(['shares', 'ugcPosts']);
      expect(urls[0]).toContain('shares=List(urn%3Ali%3Ashare%3A11,urn%3Ali%3Ashare%3A12)');
    });

    it("members keep the refusal: LinkedIn gives a member's statistics to approved partners only", async () => {
      const member = { ...page('1'), externalId: PERSON };
      await expect(provider.fetchAccountMetrics(member)).rejects.toMatchObject({ code: 'provider_capability_unavailable' });
      await expect(provider.fetchPostMetrics(member, ['urn:li:share:1'])).rejects.toMatchObject({
        code: 'provider_capability_unavailable',
      });
      expect(sent).toEqual([]);
    });
  });
});
