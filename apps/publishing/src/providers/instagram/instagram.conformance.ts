import { startFakeInstagram, type FakeInstagramMedia } from '@social/testing';
import type { ConformanceFailure, ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { graphErrorBody as graphError, profileRun, SPEC_POLLING } from '../graph/graph-profile.conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { INSTAGRAM_API_VERSION, InstagramNetwork } from './instagram.network.js';
import { InstagramProvider } from './instagram.provider.js';

/** Graph API error bodies (README.md beside this file: "Errors"), as Instagram answers media_publish. */
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    rate_limited: { status: 429, body: graphError(4, 'Application request limit reached'), headers: { 'retry-after': '3' } },
    server_error: { status: 500, body: graphError(2, 'An unexpected error has occurred. Please retry your request later.') },
    auth: { status: 401, body: graphError(190, 'Error validating access token: Session has expired.') },
    validation: { status: 400, body: graphError(100, 'Invalid parameter', 2207028) },
    answer_lost: { drop_after_handling: true },
  })[failure];

/**
 * Instagram against the fake Instagram API (libs/testing). Media-first: a caption alone is refused. The spec's media
 * name `https://media.invalid/…`, which the fake treats as fetched fixtures (Instagram fetches media by URL).
 */
export const conformance: ProviderConformanceCase = {
  platform: 'instagram',
  supports: { textOnly: false, images: true, videos: true, threads: false, reconcile: 'finds', accountMetrics: true, postMetrics: true },
  async start() {
    const fake = await startFakeInstagram();
    return profileRun({
      platform: 'instagram',
      fake,
      provider: new InstagramProvider(new InstagramNetwork(), new ProviderHttp({ instagram: fake.origin }), 2_000, SPEC_POLLING),
      username: 'ada.ig',
      publishPath: (userId) => `/${INSTAGRAM_API_VERSION}/${userId}/media_publish`,
      failureAnswer,
      async posts(control) {
        const posts = (await control('GET', '/posts')) as FakeInstagramMedia[];
        return posts.map((post) => ({ externalId: post.id, text: post.caption, media: post.media_count, replyTo: null }));
      },
    });
  },
};
