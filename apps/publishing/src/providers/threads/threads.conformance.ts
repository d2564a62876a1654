import { randomUUID } from 'node:crypto';
import { callControl, startFakeThreads, type FakeThreadsPost } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { ThreadsNetwork } from './threads.network.js';
import { THREADS_API_VERSION, ThreadsProvider } from './threads.provider.js';

/** Graph API error bodies (README.md beside this file: "Handling errors"), as Threads answers threads_publish. */
const graphError = (code: number, message: string) => ({
  error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEfGh123' },
});
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    rate_limited: { status: 429, body: graphError(4, 'Application request limit reached') },
    server_error: { status: 500, body: graphError(2, 'An unexpected error has occurred. Please retry your request later.') },
    auth: { status: 401, body: graphError(190, 'Error validating access token: Session has expired.') },
    validation: { status: 400, body: graphError(100, 'Invalid parameter') },
    answer_lost: { drop_after_handling: true },
  })[failure];

/**
 * Threads against the fake Threads API (libs/testing). The spec's media name `https://media.invalid/…`, which
 * the fake treats as fetched fixtures (Threads fetches media by URL; see startFakeThreads).
 */
export const conformance: ProviderConformanceCase = {
  platform: 'threads',
  supports: { textOnly: true, images: true, videos: true, threads: true, reconcile: 'finds', accountMetrics: true, postMetrics: true },
  async start() {
    const fake = await startFakeThreads();
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    const provider = new ThreadsProvider(new ThreadsNetwork(), new ProviderHttp({ threads: fake.origin }), 2_000, {
      firstWaitMs: 20,
      maxWaitMs: 100,
      limitMs: 5_000,
    });
    const accessToken = `tok-${randomUUID()}`;
    let userId = '';
    return {
      provider,
      async connect() {
        await control('POST', '/accounts', { access_token: accessToken, username: 'ada' });
        const client = { clientId: 'conformance', clientSecret: 'secret', instanceUrl: '' };
        const identity = await provider.fetchIdentity(client, { accessToken }, AbortSignal.timeout(2_000));
        userId = identity.externalId;
        return connectedAccount('threads', identity, { accessToken });
      },
      async posts() {
        const posts = (await control('GET', '/posts')) as FakeThreadsPost[];
        return posts.map((post) => ({ externalId: post.id, text: post.text, media: post.media_count, replyTo: post.reply_to_id }));
      },
      async fail(failure) {
        const path = `/${THREADS_API_VERSION}/${userId}/threads_publish`;
        await control('POST', '/failures', { path, method: 'POST', ...failureAnswer(failure) });
      },
      stop: () => fake.stop(),
    };
  },
};
