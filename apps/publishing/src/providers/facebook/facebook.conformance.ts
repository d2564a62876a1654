import { randomUUID } from 'node:crypto';
import { callControl, type FakeFacebookPost, startFakeFacebook } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { graphErrorBody as graphError, SPEC_POLLING } from '../graph/graph-profile.conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { FACEBOOK_GRAPH_VERSION, FacebookNetwork } from './facebook.network.js';
import { FacebookProvider } from './facebook.provider.js';

/** Graph API error bodies (README.md beside this file: "Handling errors"), as Graph answers a Page's /feed. */
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    rate_limited: { status: 429, body: graphError(32, 'Page request limit reached'), headers: { 'retry-after': '3' } },
    server_error: { status: 500, body: graphError(2, 'An unexpected error has occurred. Please retry your request later.') },
    auth: { status: 400, body: graphError(190, 'Error validating access token: The session has been invalidated.', 460) },
    validation: { status: 400, body: graphError(100, '(#100) Invalid parameter') },
    answer_lost: { drop_after_handling: true },
  })[failure];

/** Facebook Pages against the fake Graph API (libs/testing): a person managing one Page, connected as that Page. */
export const conformance: ProviderConformanceCase = {
  platform: 'facebook',
  supports: { textOnly: true, images: true, videos: true, threads: false, reconcile: 'finds', accountMetrics: true, postMetrics: true },
  async start() {
    const fake = await startFakeFacebook();
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    await control('POST', '/chunk', { bytes: 16 * 1024 });
    const provider = new FacebookProvider(new FacebookNetwork(), new ProviderHttp({ facebook: fake.origin }), 2_000, SPEC_POLLING);
    const userToken = `user-${randomUUID()}`;
    let pageId = '';
    return {
      provider,
      async connect() {
        await control('POST', '/users', {
          name: 'Ada Lovelace',
          access_token: userToken,
          pages: [{ name: 'Analytical Engines', username: 'engines', access_token: `page-${randomUUID()}` }],
        });
        const client = { clientId: 'conformance', clientSecret: 'secret', instanceUrl: '' };
        const [page] = await provider.fetchIdentities(client, { accessToken: userToken }, AbortSignal.timeout(2_000), { extension: false });
        pageId = page.externalId;
        return connectedAccount('facebook', page, page.grant!);
      },
      async posts() {
        const posts = (await control('GET', '/posts')) as FakeFacebookPost[];
        return posts.map((post) => ({ externalId: post.video_id || post.id, text: post.message, media: post.media_count, replyTo: null }));
      },
      async fail(failure) {
        await control('POST', '/failures', {
          path: `/${FACEBOOK_GRAPH_VERSION}/${pageId}/feed`,
          method: 'POST',
          ...failureAnswer(failure),
        });
      },
      stop: () => fake.stop(),
    };
  },
};
