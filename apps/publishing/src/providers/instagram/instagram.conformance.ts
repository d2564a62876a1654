import { randomUUID } from 'node:crypto';
import { callControl, startFakeInstagram, type FakeInstagramMedia } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { INSTAGRAM_API_VERSION, InstagramNetwork } from './instagram.network.js';
import { InstagramProvider } from './instagram.provider.js';

/** Graph API error bodies (README.md beside this file: "Errors"), as Instagram answers media_publish. */
const graphError = (code: number, message: string, subcode?: number) => ({
  error: { message, type: 'OAuthException', code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: 'AbCdEfGh123' },
});
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
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    const provider = new InstagramProvider(new InstagramNetwork(), new ProviderHttp({ instagram: fake.origin }), 2_000, {
      firstWaitMs: 20,
      maxWaitMs: 100,
      limitMs: 5_000,
    });
    const accessToken = `tok-${randomUUID()}`;
    let userId = '';
    return {
      provider,
      async connect() {
        await control('POST', '/accounts', { access_token: accessToken, username: 'ada.ig' });
        const client = { clientId: 'conformance', clientSecret: 'secret', instanceUrl: '' };
        const identity = await provider.fetchIdentity(client, { accessToken }, AbortSignal.timeout(2_000));
        userId = identity.externalId;
        return connectedAccount('instagram', identity, { accessToken });
      },
      async posts() {
        const posts = (await control('GET', '/posts')) as FakeInstagramMedia[];
        return posts.map((post) => ({ externalId: post.id, text: post.caption, media: post.media_count, replyTo: null }));
      },
      async fail(failure) {
        const path = `/${INSTAGRAM_API_VERSION}/${userId}/media_publish`;
        await control('POST', '/failures', { path, method: 'POST', ...failureAnswer(failure) });
      },
      stop: () => fake.stop(),
    };
  },
};
