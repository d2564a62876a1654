import { afterEach, describe, expect, it } from '@jest/globals';
import type { FakeThreadsContainer, FakeThreadsPost, ScriptedFailure } from '@social/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { call } from '../support/api.js';
import { deliveries, publicationWhen, publishNow, settled } from '../support/delivery.js';
import { fakeControl } from '../support/fake-control.js';
import { connectThroughOAuth, providerAppForSuite } from '../support/oauth-account.js';
import { createPublication } from '../support/publishing.js';
import { createTenant, type Tenant } from '../support/tenancy.js';

/** The fake Threads API global setup starts (E2E_FAKE_THREADS_URL is its control API). */
const threads = fakeControl('E2E_FAKE_THREADS_URL', 'the fake Threads API');
const postsOf = async (userId: string): Promise<FakeThreadsPost[]> =>
  ((await threads('GET', '/posts')) as FakeThreadsPost[]).filter((post) => post.account_id === userId);
const containersOf = async (userId: string): Promise<FakeThreadsContainer[]> =>
  ((await threads('GET', '/containers')) as FakeThreadsContainer[]).filter((container) => container.account_id === userId);
const failNextAtThreads = (failure: ScriptedFailure) => threads('POST', '/failures', failure);

/**
 * The delivery engine against the Threads adapter, end to end: an account connected through the OAuth fake (its
 * short-lived token traded at the fake Threads API for a long-lived one), then posts published through containers.
 */
describe('publishing: delivery to threads (engine + adapter against the fake Threads API)', () => {
  const clientSecret = `th-secret-${randomUUID()}`;
  providerAppForSuite('threads', { clientId: `th-delivery-${randomUUID().slice(0, 8)}`, clientSecret });

  afterEach(async () => {
    await threads('DELETE', '/failures');
  });

  /** A threads account connected through the OAuth flow; its Threads user id (the fake's account) and username. */
  async function connectThreads(tenant: Tenant) {
    const shortLived = `th-short-${randomUUID()}`;
    const userId = String(17_841_400_000_000_000n + BigInt(randomBytes(4).readUInt32BE()));
    const username = `ada_${randomBytes(4).toString('hex')}`;
    const { account } = await connectThroughOAuth(tenant, 'threads', {
      client_secret: clientSecret,
      access_token: shortLived,
      token_response: { access_token: shortLived, user_id: Number(userId) },
      profile: { id: userId, username, name: 'Ada', threads_profile_picture_url: 'https://scontent.example/ada.jpg' },
    });
    expect(account).toMatchObject({ platform: 'threads', username, status: 'active' });
    return { account, userId, username };
  }

  async function publishTo(tenant: Tenant, publication: { id: string; revision: number }, accountId: string) {
    const started = await publishNow(tenant.owner.token, publication.id, {
      expected_revision: publication.revision,
      account_ids: [accountId],
    });
    expect(started.status).toBe(200);
    const done = await publicationWhen(tenant.owner.token, publication.id, settled, 30_000);
    return { publication: done, rendition: done.renditions[0] };
  }

  it('publish-now goes live once: a TEXT container, published, the rendition carrying the post id and permalink', async () => {
    const tenant = await createTenant();
    const { account, userId, username } = await connectThreads(tenant);
    const text = `Shipping to Threads ${randomUUID()}`;
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { title: 'Release notes', source_text: text });
    const { publication, rendition } = await publishTo(tenant, draft, account.id);

    const posts = await postsOf(userId);
    expect(posts).toEqual([expect.objectContaining({ text: `Release notes\n\n${text}`, media_type: 'TEXT_POST', reply_to_id: null })]);
    expect(await containersOf(userId)).toEqual([expect.objectContaining({ media_type: 'TEXT', status: 'PUBLISHED' })]);
    expect(publication.status).toBe('published');
    expect(rendition).toMatchObject({
      platform: 'threads',
      status: 'published',
      external_id: posts[0].id,
      external_url: `https://www.threads.net/@${username}/post/${posts[0].id}`,
      delivery: expect.objectContaining({ state: 'live', current_attempt_number: 1 }),
    });
  });

  it('a thread goes out as replies, each part replying to the one before, in order', async () => {
    const tenant = await createTenant();
    const { account, userId } = await connectThreads(tenant);
    const tag = randomUUID().slice(0, 8);
    const bodies = [`First, the problem ${tag}.`, `Second, the fix ${tag}.`, `Third, what is next ${tag}.`];
    const created = await createPublication(tenant.owner.token, tenant.workspaceId, {
      content_profile: 'thread',
      title: '',
      source_text: '',
    });
    const patched = await call('PATCH', `/publications/${created.id}`, {
      token: tenant.owner.token,
      body: { expected_revision: created.revision, segments: bodies.map((body) => ({ body })) },
    });
    expect(patched.status).toBe(200);
    const { publication, rendition } = await publishTo(tenant, patched.body, account.id);
    expect(publication.status).toBe('published');
    const posts = await postsOf(userId);
    expect(posts.map((post) => [post.text, post.reply_to_id])).toEqual([
      [bodies[0], null],
      [bodies[1], posts[0].id],
      [bodies[2], posts[1].id],
    ]);
    expect(rendition.segments.map((segment: { external_id: string }) => segment.external_id)).toEqual(posts.map((post) => post.id));
  });

  it('a 429 at threads_publish with Retry-After is retried after it, then live: one post', async () => {
    const tenant = await createTenant();
    const { account, userId } = await connectThreads(tenant);
    await failNextAtThreads({
      path: `/v1.0/${userId}/threads_publish`,
      method: 'POST',
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { message: 'Application request limit reached', type: 'OAuthException', code: 4, fbtrace_id: 'e2e' } },
    });
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Busy Threads ${randomUUID()}` });
    const { publication, rendition } = await publishTo(tenant, draft, account.id);
    expect(publication.status).toBe('published');
    expect((await deliveries(tenant.owner.token, publication.id)).body.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'retry', error_code: 'provider_rate_limited', http_status: 429 }),
      expect.objectContaining({ attempt: 2, outcome: 'live' }),
    ]);
    const posts = await postsOf(userId);
    expect(posts).toHaveLength(1);
    expect(rendition.external_id).toBe(posts[0].id);
  });

  it('an answer lost after threads_publish made the post is ambiguous, reconciled live from the listing: one post', async () => {
    const tenant = await createTenant();
    const { account, userId } = await connectThreads(tenant);
    await failNextAtThreads({ path: `/v1.0/${userId}/threads_publish`, method: 'POST', drop_after_handling: true });
    const draft = await createPublication(tenant.owner.token, tenant.workspaceId, { source_text: `Lost answer ${randomUUID()}` });
    const { publication, rendition } = await publishTo(tenant, draft, account.id);
    const posts = await postsOf(userId);
    expect(posts).toHaveLength(1);
    expect(publication.status).toBe('published');
    expect(rendition).toMatchObject({ status: 'published', external_id: posts[0].id });
    expect((await deliveries(tenant.owner.token, publication.id)).body.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'ambiguous', error_code: 'provider_connection_lost' }),
    ]);
  });
});
