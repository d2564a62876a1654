import { randomUUID } from 'node:crypto';
import { callControl, startFakeLinkedIn, type FakeLinkedInPost } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { LinkedInNetwork } from './linkedin.network.js';
import { LinkedInProvider } from './linkedin.provider.js';

const POSTS = '/rest/posts';

/** LinkedIn's documented answers (README.md beside this file: rate limits, error handling), scripted at the fake. */
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    rate_limited: {
      status: 429,
      body: { status: 429, message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.' },
      headers: { 'retry-after': '3' },
    },
    server_error: { status: 503, body: { status: 503, message: 'Service Unavailable' } },
    auth: {
      status: 401,
      body: { status: 401, serviceErrorCode: 65602, code: 'EXPIRED_ACCESS_TOKEN', message: 'The token used in the request has expired' },
    },
    validation: {
      status: 422,
      body: {
        errorDetailType: 'com.linkedin.common.error.BadRequest',
        message: 'com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of urn:li:share:1',
        errorDetails: { inputErrors: [{ description: 'Duplicate post is detected', input: {}, code: 'DUPLICATE_POST' }] },
        status: 422,
      },
    },
    answer_lost: { drop_after_handling: true },
  })[failure];

/** LinkedIn members against the fake LinkedIn (libs/testing). */
export const conformance: ProviderConformanceCase = {
  platform: 'linkedin',
  supports: { textOnly: true, images: true, videos: true, threads: false, reconcile: 'finds', accountMetrics: false, postMetrics: false },
  async start() {
    const fake = await startFakeLinkedIn();
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    const provider = new LinkedInProvider(new LinkedInNetwork(), new ProviderHttp({ linkedin: fake.origin }), 2_000);
    const accessToken = `tok-${randomUUID()}`;
    return {
      provider,
      async connect() {
        await control('POST', '/accounts', { access_token: accessToken, person_id: 'abc123XYZ', name: 'Ada Lovelace' });
        const client = { clientId: 'conformance', clientSecret: 'secret', instanceUrl: '' };
        const identity = await provider.fetchIdentity(client, { accessToken }, AbortSignal.timeout(2_000));
        return connectedAccount('linkedin', identity, { accessToken });
      },
      async posts() {
        const posts = (await control('GET', '/posts')) as FakeLinkedInPost[];
        return posts.map((post) => ({ externalId: post.id, text: post.text, media: post.media.length, replyTo: null }));
      },
      async fail(failure) {
        await control('POST', '/failures', { path: POSTS, method: 'POST', ...failureAnswer(failure) });
      },
      stop: () => fake.stop(),
    };
  },
};
