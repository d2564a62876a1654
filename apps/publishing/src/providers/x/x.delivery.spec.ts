import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { callControl, type FakeX, type FakeXMedia, type FakeXTweet, startFakeX } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { outgoingMedia, outgoingPart } from '../outgoing-post.fixtures.js';
import { ProviderHttp } from '../provider-http.js';
import { DeliveryError, type OutgoingMedia, type OutgoingPost, type OutgoingPostPart, type ProviderAccount } from '../social-provider.js';
import { XNetwork } from './x.network.js';
import { comparable, segments, X_SEGMENT_BYTES, XProvider } from './x.provider.js';

const MIB = 1024 * 1024;

/** A request as the adapter sent it: method, path and query, headers, and its JSON or multipart body. */
interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  json?: unknown;
  fields?: Record<string, string>;
  files?: Array<{ name: string; size: number; type: string }>;
}

/**
 * The X adapter over real HTTP against the fake X API (libs/testing): the requests it sends, the chunked
 * upload and its processing, and how each failure becomes a DeliveryFailure. Reconciliation is here too.
 */
describe('X delivery (against a fake X API)', () => {
  let fake: FakeX;
  let account: ProviderAccount;
  let provider: XProvider;
  let sent: Sent[] = [];
  const token = `tok-${randomUUID()}`;

  const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
  const posted = (): Promise<FakeXTweet[]> => control('GET', '/tweets');
  const uploads = (): Promise<FakeXMedia[]> => control('GET', '/media');
  const part = outgoingPart;
  const post = (...parts: OutgoingPostPart[]): OutgoingPost => ({ marker: randomUUID(), parts });
  const png = () =>
    sharp({ create: { width: 16, height: 12, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
  /** A video of `size` bytes whose storage hands it over in reads of 64 KiB (as a stream from object storage would). */
  const video = (size: number): OutgoingMedia => ({
    ...outgoingMedia(Buffer.alloc(0), 'video/mp4', '', { width: 640, height: 360 }),
    size,
    open: async () =>
      Readable.from(
        (function* () {
          for (let at = 0; at < size; at += 64 * 1024) yield Buffer.alloc(Math.min(64 * 1024, size - at), 7);
        })(),
      ),
  });
  const failureOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DeliveryError);
    return (error as DeliveryError).failure;
  };
  const calls = (method: string, pattern: RegExp) => sent.filter((request) => request.method === method && pattern.test(request.path));

  /** Records what goes out, then sends it. */
  const recordingFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const request: Sent = {
      method: init?.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v])),
    };
    if (typeof init?.body === 'string') request.json = JSON.parse(init.body);
    if (init?.body instanceof FormData) {
      request.fields = {};
      request.files = [];
      for (const [name, value] of init.body.entries()) {
        if (typeof value === 'string') request.fields[name] = value;
        else request.files.push({ name, size: value.size, type: value.type });
      }
    }
    sent.push(request);
    return fetch(input, init);
  };

  beforeAll(async () => {
    fake = await startFakeX();
    const me = await control('POST', '/accounts', { access_token: token, username: 'ada' });
    account = { id: randomUUID(), platform: 'x', externalId: me.id, username: 'ada', instanceUrl: '', grant: { accessToken: token } };
    provider = new XProvider(new XNetwork(), new ProviderHttp({ x: fake.origin }, undefined, recordingFetch), 2_000);
  });

  beforeEach(async () => {
    await control('DELETE', '/state');
    await control('POST', '/processing', { polls: 2, check_after_secs: 0 });
    sent = [];
  });

  afterAll(async () => {
    await fake.stop();
  });

  describe('posts', () => {
    it('sends POST /2/tweets with the Bearer token and the text as JSON: title, text and link once each', async () => {
      const published = await provider.publish(
        account,
        post(part('We shipped & it works <3', { title: 'Launch', link: 'https://example.com/a' })),
      );
      const [tweet] = await posted();
      expect(tweet).toMatchObject({ text: 'Launch\n\nWe shipped & it works <3\n\nhttps://example.com/a', in_reply_to_tweet_id: null });
      expect(calls('POST', /^\/2\/tweets$/)).toEqual([
        {
          method: 'POST',
          path: '/2/tweets',
          headers: { accept: 'application/json', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          json: { text: 'Launch\n\nWe shipped & it works <3\n\nhttps://example.com/a' },
        },
      ]);
      const url = `https://x.com/ada/status/${tweet.id}`;
      expect(published).toEqual({ externalId: tweet.id, externalUrl: url, parts: [{ externalId: tweet.id, externalUrl: url }] });
    });

    it('sends a thread as replies in order (reply.in_reply_to_tweet_id), answering every part', async () => {
      const published = await provider.publish(account, post(part('one'), part('two'), part('three')));
      const tweets = await posted();
      expect(tweets.map((tweet) => [tweet.text, tweet.in_reply_to_tweet_id])).toEqual([
        ['one', null],
        ['two', tweets[0].id],
        ['three', tweets[1].id],
      ]);
      expect(calls('POST', /^\/2\/tweets$/).map((request) => request.json)).toEqual([
        { text: 'one' },
        { text: 'two', reply: { in_reply_to_tweet_id: tweets[0].id } },
        { text: 'three', reply: { in_reply_to_tweet_id: tweets[1].id } },
      ]);
      expect(published.parts.map((p) => p.externalId)).toEqual(tweets.map((tweet) => tweet.id));
    });

    it('refuses more than 4 media in a part before sending anything', async () => {
      const image = outgoingMedia(await png(), 'image/png');
      expect(await failureOf(provider.publish(account, post(part('x', { media: [image, image, image, image, image] }))))).toMatchObject({
        outcome: 'rejected',
        kind: 'validation',
        code: 'too_many_media',
      });
      expect(sent).toEqual([]);
    });
  });

  describe('media', () => {
    it('uploads an image: initialize (type, size, tweet_image), one multipart segment, finalize, alt text, then the post', async () => {
      const bytes = await png();
      await provider.publish(account, post(part('A picture', { media: [outgoingMedia(bytes, 'image/png', 'A red square')] })));
      const [item] = await uploads();
      expect(item).toMatchObject({
        media_category: 'tweet_image',
        total_bytes: bytes.length,
        segments: { 0: bytes.length },
        alt_text: 'A red square',
      });
      expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([
        'POST /2/media/upload/initialize',
        `POST /2/media/upload/${item.id}/append`,
        `POST /2/media/upload/${item.id}/finalize`,
        'POST /2/media/metadata',
        'POST /2/tweets',
      ]);
      expect(sent[0].json).toEqual({ media_type: 'image/png', total_bytes: bytes.length, media_category: 'tweet_image' });
      expect(sent[1]).toMatchObject({ fields: { segment_index: '0' }, files: [{ name: 'media', size: bytes.length }] });
      expect(sent[3].json).toEqual({ id: item.id, metadata: { alt_text: { text: 'A red square' } } });
      expect(sent[4].json).toEqual({ text: 'A picture', media: { media_ids: [item.id] } });
      expect((await posted())[0].media_ids).toEqual([item.id]);
    });

    it('streams a video in segments of at most 4 MiB, then polls STATUS until processing succeeded', async () => {
      const size = 9 * MIB + 5;
      await provider.publish(account, post(part('A film', { media: [video(size)] })));
      const [item] = await uploads();
      expect(item).toMatchObject({ media_category: 'tweet_video', state: 'succeeded', segments: { 0: 4 * MIB, 1: 4 * MIB, 2: MIB + 5 } });
      expect(calls('POST', /\/append$/).map((request) => request.fields?.segment_index)).toEqual(['0', '1', '2']);
      // pending after FINALIZE, in_progress twice, then succeeded.
      expect(calls('GET', /^\/2\/media\/upload\?/).map((request) => request.path)).toEqual(
        Array(3).fill(`/2/media/upload?command=STATUS&media_id=${item.id}`),
      );
      expect(calls('POST', /^\/2\/media\/metadata$/)).toEqual([]);
      expect((await posted())[0].media_ids).toEqual([item.id]);
    });

    it('waits as processing_info.check_after_secs says between STATUS polls', async () => {
      await control('POST', '/processing', { polls: 0, check_after_secs: 1 });
      const started = Date.now();
      await provider.publish(account, post(part('A slow film', { media: [video(1024)] })));
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    });

    it('waits for a segment X holds before answering, then goes on', async () => {
      await control('POST', '/failures', { path: '/2/media/upload/append', method: 'POST', delay_ms: 300 });
      const started = Date.now();
      await provider.publish(account, post(part('A held film', { media: [video(2048)] })));
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
      expect((await uploads())[0]).toMatchObject({ segments: { 0: 2048 }, state: 'succeeded' });
      expect(await posted()).toHaveLength(1);
    });

    it('uploads an animated GIF as tweet_gif, processed like a video', async () => {
      const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#00f' } })
        .gif()
        .toBuffer();
      await provider.publish(account, post(part('A loop', { media: [outgoingMedia(gif, 'image/gif', 'A blue loop')] })));
      const [item] = await uploads();
      expect(item).toMatchObject({ media_category: 'tweet_gif', state: 'succeeded', alt_text: 'A blue loop' });
    });

    it('rejects the rendition when X fails to process the video, posting nothing', async () => {
      await control('POST', '/processing', { polls: 1, check_after_secs: 0, fail_next: true });
      expect(await failureOf(provider.publish(account, post(part('Broken film', { media: [video(2048)] }))))).toMatchObject({
        outcome: 'rejected',
        kind: 'validation',
        code: 'media_processing_failed',
      });
      expect(await posted()).toEqual([]);
    });

    it('uploads every part of a thread before the first post: a failed upload of part 2 posts nothing', async () => {
      await control('POST', '/failures', {
        path: '/2/media/upload/append',
        method: 'POST',
        status: 503,
        body: { title: 'Service Unavailable', type: 'about:blank', status: 503 },
      });
      const image = outgoingMedia(await png(), 'image/png');
      expect(await failureOf(provider.publish(account, post(part('first'), part('second', { media: [image] }))))).toMatchObject({
        outcome: 'retryable',
        code: 'provider_error',
        httpStatus: 503,
      });
      expect(await posted()).toEqual([]);
    });

    it('maps a refused segment (400 problem) to a rejected rendition', async () => {
      await control('POST', '/failures', {
        path: '/2/media/upload/append',
        method: 'POST',
        status: 400,
        body: {
          title: 'Invalid Request',
          detail: 'One or more parameters to your request was invalid.',
          type: 'https://api.twitter.com/2/problems/invalid-request',
        },
      });
      expect(await failureOf(provider.publish(account, post(part('x', { media: [video(1024)] }))))).toMatchObject({
        outcome: 'rejected',
        kind: 'validation',
        httpStatus: 400,
      });
    });
  });

  describe('failures', () => {
    it('maps a duplicate text (403 "duplicate content") to a rejected `duplicate_content`, never retried', async () => {
      await provider.publish(account, post(part('Same words')));
      const failure = await failureOf(provider.publish(account, post(part('Same words'))));
      expect(failure).toMatchObject({ outcome: 'rejected', kind: 'validation', code: 'duplicate_content', httpStatus: 403 });
      expect(await posted()).toHaveLength(1);
    });

    it('keeps any other 403 an authorization refusal (reconnect)', async () => {
      await control('POST', '/failures', {
        path: '/2/tweets',
        method: 'POST',
        status: 403,
        body: { title: 'Forbidden', detail: 'You are not permitted to perform this action.', type: 'about:blank', status: 403 },
      });
      expect(await failureOf(provider.publish(account, post(part('Fresh words'))))).toMatchObject({ outcome: 'rejected', kind: 'auth' });
    });

    it('renews the grant once on 401 and sends again with the new token', async () => {
      const renewed = { accessToken: token };
      const renewGrant = jest.fn(async () => renewed);
      const expired = { ...account, grant: { accessToken: 'expired' }, renewGrant };
      await provider.publish(expired, post(part('After renewal')));
      expect(renewGrant).toHaveBeenCalledTimes(1);
      expect(calls('POST', /^\/2\/tweets$/).map((request) => request.headers.authorization)).toEqual(['Bearer expired', `Bearer ${token}`]);
      expect(await posted()).toHaveLength(1);
    });

    it('answers a 401 as rejected auth when the grant cannot be renewed', async () => {
      const failure = await failureOf(provider.publish({ ...account, grant: { accessToken: 'expired' } }, post(part('No renewal'))));
      expect(failure).toMatchObject({ outcome: 'rejected', kind: 'auth', httpStatus: 401 });
      expect(failure.message).not.toMatch(/expired|Bearer/);
    });

    it('waits until x-rate-limit-reset (epoch seconds) after a 429', async () => {
      const reset = Math.floor(Date.now() / 1000) + 60;
      await control('POST', '/failures', {
        path: '/2/tweets',
        method: 'POST',
        status: 429,
        body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
        headers: { 'x-rate-limit-limit': '200', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(reset) },
      });
      const failure = await failureOf(provider.publish(account, post(part('Too fast'))));
      expect(failure).toMatchObject({ outcome: 'retryable', code: 'provider_rate_limited', httpStatus: 429 });
      const wait = failure.outcome === 'retryable' ? failure.retryAfterMs! : 0;
      expect(wait).toBeGreaterThan(55_000);
      expect(wait).toBeLessThanOrEqual(60_000);
    });

    it('maps a 400 invalid-request problem to rejected validation and a 5xx to retryable', async () => {
      await control('POST', '/failures', {
        path: '/2/tweets',
        method: 'POST',
        status: 400,
        body: { errors: [{ message: 'bad' }], title: 'Invalid Request', type: 'https://api.twitter.com/2/problems/invalid-request' },
      });
      expect(await failureOf(provider.publish(account, post(part('a'))))).toMatchObject({ outcome: 'rejected', kind: 'validation' });
      await control('POST', '/failures', {
        path: '/2/tweets',
        method: 'POST',
        status: 500,
        body: { title: 'Internal Server Error', status: 500 },
      });
      expect(await failureOf(provider.publish(account, post(part('b'))))).toMatchObject({ outcome: 'retryable', code: 'provider_error' });
      expect(await posted()).toEqual([]);
    });

    it('makes a thread refused after its first post ambiguous (sending again would post it twice); findPost cannot tell', async () => {
      const since = new Date();
      // The fake refuses a text past any account's limit: the second part is refused once the first is live.
      const thread = post(part('part one'), part('y'.repeat(25_001)));
      const failure = await failureOf(provider.publish(account, thread));
      expect(failure).toMatchObject({ outcome: 'ambiguous', code: 'thread_incomplete', httpStatus: 400 });
      expect((await posted()).map((tweet) => tweet.text)).toEqual(['part one']);
      expect(await provider.findPost(account, thread, since)).toBe('unknown');
    });
  });

  describe('findPost', () => {
    const lose = () => control('POST', '/failures', { path: '/2/tweets', method: 'POST', drop_after_handling: true });

    it('finds a post whose answer was lost, links masked (X shows them through t.co) and entities unescaped', async () => {
      const since = new Date();
      const lost = post(part('Read this & that <now>', { link: 'https://example.com/a-long/path?q=1' }));
      await lose();
      expect((await failureOf(provider.publish(account, lost))).outcome).toBe('ambiguous');
      const [tweet] = await posted();
      expect(await provider.findPost(account, lost, since)).toEqual({
        externalId: tweet.id,
        externalUrl: `https://x.com/ada/status/${tweet.id}`,
        parts: [{ externalId: tweet.id, externalUrl: `https://x.com/ada/status/${tweet.id}` }],
      });
      const [read] = calls('GET', /^\/2\/users\//);
      const query = new URL(read.path, 'http://x').searchParams;
      expect(read.path.startsWith(`/2/users/${account.externalId}/tweets?`)).toBe(true);
      expect(Object.fromEntries(query)).toEqual({
        max_results: '100',
        start_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        'tweet.fields': 'created_at,conversation_id,referenced_tweets',
      });
    });

    it('finds a post with media (X appends a link to it) and a whole thread along its reply chain', async () => {
      const since = new Date();
      const image = outgoingMedia(await png(), 'image/png');
      const thread = post(part('first with a picture', { media: [image] }), part('second'));
      const published = await provider.publish(account, thread);
      expect(await provider.findPost(account, thread, since)).toEqual(published);
    });

    it('skips posts other renditions own: the same text posted before is not this one', async () => {
      const since = new Date(Date.now() - 1000);
      const earlier = await provider.publish(account, post(part('Good morning')));
      expect(await provider.findPost(account, post(part('Good morning')), since)).toMatchObject({ externalId: earlier.externalId });
      expect(await provider.findPost(account, { ...post(part('Good morning')), ownedElsewhere: [earlier.externalId] }, since)).toBeNull();
    });

    it('answers null when the timeline since the attempt holds no such post, and throws when X cannot be asked', async () => {
      await provider.publish(account, post(part('Something else')));
      expect(await provider.findPost(account, post(part('Never sent')), new Date(Date.now() - 60_000))).toBeNull();
      await control('POST', '/failures', {
        path: `/2/users/${account.externalId}/tweets`,
        method: 'GET',
        status: 503,
        body: { title: 'Service Unavailable', status: 503 },
      });
      await expect(provider.findPost(account, post(part('Never sent')), new Date())).rejects.toMatchObject({ failure: 'unavailable' });
    });
  });

  describe('helpers', () => {
    it('cuts a stream into segments of exactly the size asked, whatever its reads', async () => {
      const reads = [Buffer.alloc(3, 1), Buffer.alloc(10, 2), Buffer.alloc(1, 3), Buffer.alloc(7, 4)];
      const cut: Buffer[] = [];
      for await (const segment of segments(Readable.from(reads), 5)) cut.push(Buffer.from(segment));
      expect(cut.map((segment) => segment.length)).toEqual([5, 5, 5, 5, 1]);
      expect(Buffer.concat(cut)).toEqual(Buffer.concat(reads));
      expect(X_SEGMENT_BYTES).toBeLessThanOrEqual(5 * MIB);
    });

    it('compares texts as X shows them: t.co links masked, trailing media links dropped, entities unescaped', () => {
      expect(comparable('Read &amp; see https://t.co/abc https://t.co/media')).toBe(comparable('Read & see https://example.com/x'));
      expect(comparable('a &lt;b&gt;')).toBe('a <b>');
      expect(comparable('one https://t.co/a two')).not.toBe(comparable('one two'));
    });
  });
});
