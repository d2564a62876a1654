import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  callControl,
  type FakeThreads,
  type FakeThreadsContainer,
  type FakeThreadsPost,
  type FakeThreadsRequest,
  startFakeSocialNetwork,
  startFakeThreads,
} from '@social/testing';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderError } from '../provider-error.js';
import { failureOf, fakeProfileAccount } from '../graph/graph-profile.conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { DeliveryError, type OutgoingMedia, type OutgoingPost, type OutgoingPostPart, type ProviderAccount } from '../social-provider.js';
import { DEFAULT_RATE_LIMIT_WAIT_MS, graphFailure } from '../graph/graph-failure.js';
import { ThreadsNetwork } from './threads.network.js';
import { ThreadsProvider } from './threads.provider.js';

/**
 * The Threads adapter over real HTTP against the fake Threads API (libs/testing): the requests it sends, how it
 * waits for containers, and how each failure becomes a DeliveryFailure.
 */
describe('Threads delivery (against the fake Threads API)', () => {
  let fake: FakeThreads;
  let account: ProviderAccount;
  let token: string;
  let userId: string;
  let http: ProviderHttp;
  const polling = { firstWaitMs: 10, maxWaitMs: 40, limitMs: 3_000 };
  const provider = () => new ThreadsProvider(new ThreadsNetwork(), http, 2_000, polling);

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const posted = (): Promise<FakeThreadsPost[]> => control('GET', '/posts');
  const containers = (): Promise<FakeThreadsContainer[]> => control('GET', '/containers');
  const requests = (): Promise<FakeThreadsRequest[]> => control('GET', '/requests');
  const part = outgoingPart;
  const post = (...parts: OutgoingPostPart[]): OutgoingPost => ({ marker: randomUUID(), parts });
  /** Media Threads fetches from the fake's own file server. */
  const served = async (name: string, contentType: string, size = 2_048): Promise<OutgoingMedia> => {
    const { url } = (await control('POST', '/files', { name, content_type: contentType, size })) as { url: string };
    return outgoingMedia(Buffer.alloc(size), contentType, contentType.startsWith('image/') ? `Alt of ${name}` : '', undefined, url);
  };

  beforeAll(async () => {
    fake = await startFakeThreads();
    http = new ProviderHttp({ threads: fake.origin });
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
    ({ account, token, userId } = await fakeProfileAccount(control, 'threads', 'ada'));
  });

  afterAll(async () => {
    await fake.stop();
  });

  it('reads the quota, creates a TEXT container, waits for it, publishes it once and answers its permalink', async () => {
    const published = await provider().publish(account, post(part('We shipped.', { title: 'Launch', link: 'https://example.com/launch' })));
    const [only] = await posted();
    expect(only).toMatchObject({ text: 'Launch\n\nWe shipped.\n\nhttps://example.com/launch', media_type: 'TEXT_POST', reply_to_id: null });
    const permalink = `https://www.threads.net/@ada/post/${only.id}`;
    expect(published).toEqual({ externalId: only.id, externalUrl: permalink, parts: [{ externalId: only.id, externalUrl: permalink }] });
    const sent = await requests();
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /v1.0/${userId}/threads_publishing_limit`,
      `POST /v1.0/${userId}/threads`,
      `GET /v1.0/${only.container_id}`,
      `POST /v1.0/${userId}/threads_publish`,
      `GET /v1.0/${only.id}`,
    ]);
    // The documented shapes: GET parameters and the token in the query, POST parameters and the token in a form.
    expect(sent[0]).toMatchObject({ query: { fields: 'quota_usage,config' }, token_in: 'query' });
    expect(sent[1]).toMatchObject({
      form: { media_type: 'TEXT', text: 'Launch\n\nWe shipped.\n\nhttps://example.com/launch' },
      token_in: 'form',
      content_type: 'application/x-www-form-urlencoded',
    });
    expect(sent[2]).toMatchObject({ query: { fields: 'status,error_message' }, token_in: 'query' });
    expect(sent[3]).toMatchObject({ form: { creation_id: only.container_id }, token_in: 'form' });
    expect(sent[4]).toMatchObject({ query: { fields: 'permalink' } });
  });

  it('sends text that needs escaping as it is (form encoding), never a link already in the text twice', async () => {
    const text = 'Tom & Jerry: 100% "real" <b>ünïcödé</b> 🧵 + more = https://example.com/a?b=c&d=e';
    await provider().publish(account, post(part(text, { link: 'https://example.com/a?b=c&d=e' })));
    expect((await posted())[0].text).toBe(text);
  });

  it('publishes a thread as replies, each to the part before, after reading both quotas', async () => {
    const published = await provider().publish(account, post(part('One'), part('Two'), part('Three')));
    const posts = await posted();
    expect(posts.map((p) => [p.text, p.reply_to_id])).toEqual([
      ['One', null],
      ['Two', posts[0].id],
      ['Three', posts[1].id],
    ]);
    expect(published.parts.map((p) => p.externalId)).toEqual(posts.map((p) => p.id));
    const [quota] = await requests();
    expect(quota.query.fields).toBe('quota_usage,config,reply_quota_usage,reply_config');
  });

  it('asks no reply quota of a grant without threads_manage_replies (Threads would refuse the read)', async () => {
    account.grant = { accessToken: token, scopes: ['threads_basic', 'threads_content_publish'] };
    await provider().publish(account, post(part('One'), part('Two')));
    expect((await requests())[0].query.fields).toBe('quota_usage,config');
  });

  it('publishes an image by its public URL with its alt text; Threads fetches it, and the container is polled until FINISHED', async () => {
    await control('POST', '/processing', { polls: 3 });
    const image = await served('red.png', 'image/png');
    await provider().publish(account, post(part('A picture', { media: [image] })));
    const [container] = await containers();
    expect(container).toMatchObject({
      media_type: 'IMAGE',
      image_url: `${fake.filesUrl}/red.png`,
      alt_text: 'Alt of red.png',
      text: 'A picture',
      fetched_type: 'image/png',
      fetched_size: 2_048,
      status: 'PUBLISHED',
    });
    expect((await posted())[0]).toMatchObject({ media_type: 'IMAGE', media_count: 1 });
    const polls = (await requests()).filter((request) => request.path === `/v1.0/${container.id}`);
    expect(polls).toHaveLength(4);
  });

  it('publishes several media as a carousel: an item container each, then the CAROUSEL naming them', async () => {
    const media = [await served('a.png', 'image/png'), await served('b.jpg', 'image/jpeg'), await served('c.mp4', 'video/mp4')];
    await provider().publish(account, post(part('Three at once', { media })));
    const all = await containers();
    const items = all.filter((container) => container.is_carousel_item);
    expect(items.map((item) => [item.media_type, item.text])).toEqual([
      ['IMAGE', ''],
      ['IMAGE', ''],
      ['VIDEO', ''],
    ]);
    expect(items[2].video_url).toBe(`${fake.filesUrl}/c.mp4`);
    const carousel = all.find((container) => container.media_type === 'CAROUSEL')!;
    expect(carousel).toMatchObject({ children: items.map((item) => item.id), text: 'Three at once', status: 'PUBLISHED' });
    expect((await posted())[0]).toMatchObject({ media_type: 'CAROUSEL_ALBUM', media_count: 3 });
  });

  it('rejects a post whose media Threads could not fetch, with the error_message Threads names; nothing is published', async () => {
    const missing = outgoingMedia(Buffer.alloc(10), 'video/mp4', '', undefined, `${fake.origin}/files/never-made.mp4`);
    const failure = await failureOf(provider().publish(account, post(part('Broken', { media: [missing] }))));
    expect(failure).toMatchObject({ outcome: 'rejected', kind: 'validation', code: 'failed_downloading_video' });
    expect(await posted()).toHaveLength(0);
  });

  it('gives up a container still processing past the limit as retryable media_processing_timeout', async () => {
    await control('POST', '/processing', { polls: 1_000 });
    const slow = new ThreadsProvider(new ThreadsNetwork(), http, 2_000, { firstWaitMs: 10, maxWaitMs: 20, limitMs: 100 });
    const failure = await failureOf(slow.publish(account, post(part('Slow', { media: [await served('v.mp4', 'video/mp4')] }))));
    expect(failure).toMatchObject({ outcome: 'retryable', code: 'media_processing_timeout' });
    expect(await posted()).toHaveLength(0);
  });

  it('tries an expired container again later (retryable container_expired)', async () => {
    await control('POST', '/processing', { polls: 1_000 });
    const publishing = failureOf(provider().publish(account, post(part('Late', { media: [await served('late.png', 'image/png')] }))));
    let container: FakeThreadsContainer | undefined;
    while (!container) [container] = await containers();
    await control('POST', `/containers/${container.id}/expire`);
    expect(await publishing).toMatchObject({ outcome: 'retryable', code: 'container_expired' });
  });

  it('refuses more than 20 media before sending anything', async () => {
    const media = Array.from({ length: 21 }, () => outgoingMedia(Buffer.alloc(1), 'image/png'));
    expect(await failureOf(provider().publish(account, post(part('Too many', { media }))))).toMatchObject({
      outcome: 'rejected',
      code: 'too_many_media',
    });
    expect(await requests()).toHaveLength(0);
  });

  it('waits out the publishing limit (quota_duration) without creating a container when the profile has used it', async () => {
    await control('POST', '/quota', { quota_total: 1 });
    await provider().publish(account, post(part('The one allowed')));
    const failure = await failureOf(provider().publish(account, post(part('One too many'))));
    expect(failure).toMatchObject({ outcome: 'retryable', code: 'provider_rate_limited', retryAfterMs: 86_400_000 });
    expect(await containers()).toHaveLength(1);
  });

  it('counts a thread against the reply quota', async () => {
    await control('POST', '/quota', { reply_quota_total: 1 });
    const failure = await failureOf(provider().publish(account, post(part('One'), part('Two'), part('Three'))));
    expect(failure).toMatchObject({ outcome: 'retryable', code: 'provider_rate_limited' });
    expect(await posted()).toHaveLength(0);
  });

  it('maps a 429 from threads_publish to a retryable rate limit with a wait, and a 5xx to retryable', async () => {
    const path = `/v1.0/${userId}/threads_publish`;
    const body = { error: { message: 'Application request limit reached', type: 'OAuthException', code: 4, fbtrace_id: 'x' } };
    await control('POST', '/failures', { path, status: 429, body });
    expect(await failureOf(provider().publish(account, post(part('Limited'))))).toMatchObject({
      outcome: 'retryable',
      code: 'provider_rate_limited',
      retryAfterMs: DEFAULT_RATE_LIMIT_WAIT_MS,
    });
    await control('POST', '/failures', { path, status: 429, body, headers: { 'retry-after': '7' } });
    expect(await failureOf(provider().publish(account, post(part('Limited again'))))).toMatchObject({ retryAfterMs: 7_000 });
    await control('POST', '/failures', {
      path,
      status: 503,
      body: { error: { message: 'Service unavailable', code: 2, type: 'OAuthException' } },
    });
    expect(await failureOf(provider().publish(account, post(part('Down'))))).toMatchObject({
      outcome: 'retryable',
      code: 'provider_error',
    });
    expect(await posted()).toHaveLength(0);
  });

  it('rejects a container Threads refuses (400 code 100: too long) as validation, creating nothing', async () => {
    const failure = await failureOf(provider().publish(account, post(part('x'.repeat(501)))));
    expect(failure).toMatchObject({ outcome: 'rejected', kind: 'validation', httpStatus: 400 });
    expect(failure.message).not.toMatch(/tok-|access_token/);
    expect(await containers()).toHaveLength(0);
  });

  it('renews a refused token once through renewGrant and carries on with the new one', async () => {
    let renewals = 0;
    account.grant = { accessToken: 'expired-token' };
    account.renewGrant = async () => {
      renewals += 1;
      account.grant = { accessToken: token };
      return account.grant;
    };
    await provider().publish(account, post(part('After renewal')));
    expect(renewals).toBe(1);
    expect(await posted()).toHaveLength(1);
  });

  it('rejects auth when the token is refused and cannot be renewed', async () => {
    account.grant = { accessToken: 'expired-token' };
    expect(await failureOf(provider().publish(account, post(part('No'))))).toMatchObject({
      outcome: 'rejected',
      kind: 'auth',
      httpStatus: 401,
    });
  });

  it('calls an unreachable Threads retryable: nothing was sent', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new ThreadsProvider(
      new ThreadsNetwork(),
      new ProviderHttp({ threads: `http://127.0.0.1:${port}` }),
      1_000,
      polling,
    );
    expect(await failureOf(unreachable.publish(account, post(part('Nobody home'))))).toMatchObject({
      outcome: 'retryable',
      code: 'provider_unavailable',
    });
  });

  describe('a thread cut short', () => {
    it('is ambiguous (never retried blindly) when a later part is rate limited after the first went live', async () => {
      // A grant that may not read the reply quota: threads_publish is where the reply limit is met.
      account.grant = { accessToken: token, scopes: ['threads_basic', 'threads_content_publish'] };
      await control('POST', '/quota', { reply_quota_total: 0 });
      const failure = await failureOf(provider().publish(account, post(part('First'), part('Second'))));
      expect(failure).toMatchObject({ outcome: 'ambiguous', code: 'thread_incomplete', httpStatus: 429 });
      expect((await posted()).map((p) => p.text)).toEqual(['First']);
    });

    it('asks every part its media URL first: storage failing for part 2 fails the post before part 1 goes live', async () => {
      const unreachable: OutgoingMedia = {
        ...outgoingMedia(Buffer.alloc(1), 'image/png'),
        publicUrl: async () => {
          throw new DeliveryError({ outcome: 'retryable', code: 'media_unavailable', message: 'storage is down', httpStatus: 0 });
        },
      };
      const failure = await failureOf(provider().publish(account, post(part('Part one'), part('Part two', { media: [unreachable] }))));
      expect(failure).toMatchObject({ outcome: 'retryable', code: 'media_unavailable' });
      expect(await posted()).toHaveLength(0);
    });

    it('reports thread_incomplete when part 2 is refused, and findPost says it cannot tell', async () => {
      const since = new Date();
      const sent = post(part('Part one'), part('y'.repeat(501)));
      const failure = await failureOf(provider().publish(account, sent));
      expect(failure).toMatchObject({ outcome: 'ambiguous', code: 'thread_incomplete' });
      expect((await posted()).map((p) => p.text)).toEqual(['Part one']);
      expect(await provider().findPost(account, sent, since)).toBe('unknown');
    });
  });

  describe('findPost', () => {
    it('finds a post whose publish answer was lost', async () => {
      const since = new Date();
      const sent = post(part('Lost answer'));
      await control('POST', '/failures', { path: `/v1.0/${userId}/threads_publish`, method: 'POST', drop_after_handling: true });
      expect((await failureOf(provider().publish(account, sent))).outcome).toBe('ambiguous');
      const [created] = await posted();
      const found = await provider().findPost(account, sent, since);
      expect(found).toEqual({
        externalId: created.id,
        externalUrl: `https://www.threads.net/@ada/post/${created.id}`,
        parts: [{ externalId: created.id, externalUrl: `https://www.threads.net/@ada/post/${created.id}` }],
      });
      const listing = (await requests()).find((request) => request.path === `/v1.0/${userId}/threads` && request.method === 'GET')!;
      expect(listing.query).toMatchObject({ since: String(Math.floor((since.getTime() - 5 * 60_000) / 1000)), limit: '100' });
      expect(listing.query.fields).toContain('replied_to');
    });

    it('finds a whole thread, matching the reply chain in the replies listing', async () => {
      const since = new Date();
      const sent = post(part('Chain one'), part('Chain two'));
      // The same words elsewhere, not in the chain: never taken for a part.
      await provider().publish(account, post(part('Chain two')));
      const published = await provider().publish(account, sent);
      expect(await provider().findPost(account, sent, since)).toEqual(published);
      expect((await requests()).some((request) => request.path === `/v1.0/${userId}/replies`)).toBe(true);
    });

    it('answers null when nothing matches and the listing reaches back before the attempt', async () => {
      await provider().publish(account, post(part('Something else')));
      expect(await provider().findPost(account, post(part('Never sent')), new Date(Date.now() - 60_000))).toBeNull();
    });

    it('never takes a post another rendition owns for this one', async () => {
      const since = new Date();
      const earlier = await provider().publish(account, post(part('Same words')));
      const sent: OutgoingPost = { ...post(part('Same words')), ownedElsewhere: [earlier.externalId] };
      expect(await provider().findPost(account, sent, since)).toBeNull();
    });

    it('matches the media count (a text post is not the image post that was sent)', async () => {
      const since = new Date();
      await provider().publish(account, post(part('With a picture')));
      const sent = post(part('With a picture', { media: [await served('p.png', 'image/png')] }));
      expect(await provider().findPost(account, sent, since)).toBeNull();
    });

    it('throws when Threads cannot be asked now (the engine asks again later)', async () => {
      await control('POST', '/failures', { path: `/v1.0/${userId}/threads`, method: 'GET', status: 503 });
      await expect(provider().findPost(account, post(part('Any')), new Date())).rejects.toBeInstanceOf(ProviderError);
    });
  });

  describe('long-lived token refresh', () => {
    const client = { clientId: 'th-client', clientSecret: 'th-secret', instanceUrl: '' };

    it('renews with GET /refresh_access_token (th_refresh_token) and the new token publishes', async () => {
      const before = Date.now();
      const grant = await provider().refreshGrant(
        client,
        { accessToken: token, expiresAt: new Date().toISOString() },
        AbortSignal.timeout(2_000),
      );
      expect(grant.accessToken).not.toBe(token);
      expect(Date.parse(grant.expiresAt!) - before).toBeGreaterThanOrEqual(60 * 86_400_000 - 5_000);
      const [refresh] = await requests();
      expect(refresh).toMatchObject({
        method: 'GET',
        path: '/refresh_access_token',
        query: { grant_type: 'th_refresh_token' },
        token_in: 'query',
      });
      account.grant = grant;
      await provider().publish(account, post(part('With the renewed token')));
      expect(await posted()).toHaveLength(1);
    });

    it('trades the code for a short-lived token, then at once for a long-lived one (th_exchange_token)', async () => {
      const oauth = await startFakeSocialNetwork();
      const linked = await startFakeThreads({ upstream: oauth.origin });
      try {
        const profile = {
          id: '7001',
          username: 'ada.threads',
          name: 'Ada T',
          threads_profile_picture_url: 'https://scontent.example/t.jpg',
        };
        const { code } = (await callControl(oauth.controlUrl, 'POST', '/grants', {
          ...{ client_id: client.clientId, client_secret: client.clientSecret, redirect_uri: 'https://app.example/cb' },
          access_token: 'short-lived',
          token_response: { access_token: 'short-lived', user_id: 7001 },
          profile,
        })) as { code: string };
        const connecting = new ThreadsProvider(new ThreadsNetwork(), new ProviderHttp({ threads: linked.origin }), 2_000, polling);
        const before = Date.now();
        const grant = await connecting.exchangeCode(client, { code, redirectUri: 'https://app.example/cb' }, AbortSignal.timeout(2_000));
        expect(grant.accessToken).not.toBe('short-lived');
        expect(Date.parse(grant.expiresAt!) - before).toBeGreaterThanOrEqual(60 * 86_400_000 - 5_000);
        const exchange = ((await callControl(linked.controlUrl, 'GET', '/requests')) as FakeThreadsRequest[]).find(
          (request) => request.path === '/access_token',
        );
        expect(exchange).toMatchObject({
          method: 'GET',
          query: { grant_type: 'th_exchange_token', client_secret: 'th-secret' },
          token_in: 'query',
        });
        expect(await connecting.fetchIdentity(client, grant, AbortSignal.timeout(2_000))).toEqual({
          externalId: '7001',
          username: 'ada.threads',
          displayName: 'Ada T',
          avatarUrl: 'https://scontent.example/t.jpg',
        });
      } finally {
        await linked.stop();
        await oauth.stop();
      }
    });

    it('answers a refused renewal as a refusal (the account must reconnect)', async () => {
      await expect(provider().refreshGrant(client, { accessToken: 'unknown' }, AbortSignal.timeout(2_000))).rejects.toMatchObject({
        failure: 'refused',
      });
    });
  });
});

describe('Graph error codes where the status is not enough', () => {
  const refused = (status: number, code: number, retryAfterMs?: number) =>
    new ProviderError(status >= 500 || status === 429 ? 'unavailable' : 'refused', 'threads refused the request.', `graph_${code}`, {
      status,
      sent: true,
      retryAfterMs,
    });

  it.each([4, 17, 32, 613])('reads a 400 with code %i as a rate limit, retryable with a wait', (code) => {
    expect(graphFailure(refused(400, code), 'threads', true)).toMatchObject({
      outcome: 'retryable',
      code: 'provider_rate_limited',
      httpStatus: 400,
      retryAfterMs: DEFAULT_RATE_LIMIT_WAIT_MS,
    });
  });

  it('reads codes 1 and 2 as temporary, 190 as auth, 100 as validation', () => {
    expect(graphFailure(refused(400, 2), 'threads', true)).toMatchObject({ outcome: 'retryable', code: 'provider_error' });
    expect(graphFailure(refused(400, 1), 'threads', false)).toMatchObject({ outcome: 'retryable', code: 'provider_error' });
    expect(graphFailure(refused(400, 190), 'threads', true)).toMatchObject({ outcome: 'rejected', kind: 'auth' });
    expect(graphFailure(refused(400, 100), 'threads', true)).toMatchObject({ outcome: 'rejected', kind: 'validation' });
  });

  it('keeps the wait a 429 names', () => {
    expect(graphFailure(refused(429, 4, 9_000), 'threads', true)).toMatchObject({ retryAfterMs: 9_000, httpStatus: 429 });
  });
});
