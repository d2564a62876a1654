import { startFakeThreads, type FakeThreadsPost } from '@social/testing';
import type { ConformanceFailure, ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { graphErrorBody as graphError, profileRun, SPEC_POLLING } from '../graph/graph-profile.conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { ThreadsNetwork } from './threads.network.js';
import { THREADS_API_VERSION, ThreadsProvider } from './threads.provider.js';

/** Graph API error bodies (README.md beside this file: "Handling errors"), as Threads answers threads_publish. */
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
    return profileRun({
      platform: 'threads',
      fake,
      provider: new ThreadsProvider(new ThreadsNetwork(), new ProviderHttp({ threads: fake.origin }), 2_000, SPEC_POLLING),
      username: 'ada',
      publishPath: (userId) => `/${THREADS_API_VERSION}/${userId}/threads_publish`,
      failureAnswer,
      async posts(control) {
        const posts = (await control('GET', '/posts')) as FakeThreadsPost[];
        return posts.map((post) => ({ externalId: post.id, text: post.text, media: post.media_count, replyTo: post.reply_to_id }));
      },
    });
  },
};
