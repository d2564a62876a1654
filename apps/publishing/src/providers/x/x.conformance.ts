import { randomUUID } from 'node:crypto';
import { callControl, startFakeX, type FakeXTweet } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { XNetwork } from './x.network.js';
import { XProvider } from './x.provider.js';

const TWEETS = '/2/tweets';

/** X's documented answers (README.md beside this file: rate limits, problem details), scripted at the fake. */
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    rate_limited: {
      status: 429,
      body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
      // x-rate-limit-reset is epoch seconds.
      headers: {
        'x-rate-limit-limit': '200',
        'x-rate-limit-remaining': '0',
        'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 3),
      },
    },
    server_error: { status: 503, body: { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: 503 } },
    auth: { status: 401, body: { title: 'Unauthorized', detail: 'Unauthorized', type: 'about:blank', status: 401 } },
    validation: {
      status: 400,
      body: {
        errors: [{ message: 'Your Tweet text is too long.' }],
        title: 'Invalid Request',
        detail: 'One or more parameters to your request was invalid.',
        type: 'https://api.twitter.com/2/problems/invalid-request',
      },
    },
    answer_lost: { drop_after_handling: true },
  })[failure];

/** X against the fake X API (libs/testing). */
export const conformance: ProviderConformanceCase = {
  platform: 'x',
  supports: { textOnly: true, images: true, videos: true, threads: true, reconcile: 'finds', accountMetrics: true, postMetrics: true },
  async start() {
    const fake = await startFakeX();
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    // Videos are processed asynchronously (pending, in_progress, succeeded) without the fake's one-second waits.
    await control('POST', '/processing', { polls: 2, check_after_secs: 0 });
    const provider = new XProvider(new XNetwork(), new ProviderHttp({ x: fake.origin }), 2_000);
    const accessToken = `tok-${randomUUID()}`;
    return {
      provider,
      async connect() {
        await control('POST', '/accounts', { access_token: accessToken, username: 'ada' });
        const client = { clientId: 'conformance', clientSecret: 'secret', instanceUrl: '' };
        const identity = await provider.fetchIdentity(client, { accessToken }, AbortSignal.timeout(2_000));
        return connectedAccount('x', identity, { accessToken });
      },
      async posts() {
        const tweets = (await control('GET', '/tweets')) as FakeXTweet[];
        return tweets.map((tweet) => ({
          externalId: tweet.id,
          text: tweet.text,
          media: tweet.media_ids.length,
          replyTo: tweet.in_reply_to_tweet_id,
        }));
      },
      async fail(failure) {
        await control('POST', '/failures', { path: TWEETS, method: 'POST', ...failureAnswer(failure) });
      },
      stop: () => fake.stop(),
    };
  },
};
