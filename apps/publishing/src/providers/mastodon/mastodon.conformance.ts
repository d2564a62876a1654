import { randomUUID } from 'node:crypto';
import { callControl, startFakeMastodon, type FakeMastodonStatus } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { MastodonNetwork } from './mastodon.network.js';
import { MastodonProvider } from './mastodon.provider.js';

const STATUSES = '/api/v1/statuses';

/** Mastodon's documented answers (README.md beside this file: rate limits, the Error entity), scripted at the fake. */
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    rate_limited: {
      status: 429,
      body: { error: 'Too many requests' },
      // X-RateLimit-Reset is an ISO 8601 time.
      headers: {
        'x-ratelimit-limit': '300',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': new Date(Date.now() + 3_000).toISOString(),
      },
    },
    server_error: { status: 503, body: { error: 'Service Unavailable' } },
    auth: { status: 401, body: { error: 'The access token is invalid' } },
    validation: { status: 422, body: { error: "Validation failed: Text can't be blank" } },
    answer_lost: { drop_after_handling: true },
  })[failure];

/** Mastodon against the fake Mastodon server (libs/testing). */
export const conformance: ProviderConformanceCase = {
  platform: 'mastodon',
  supports: { textOnly: true, images: true, videos: true, threads: true, reconcile: 'finds', accountMetrics: true, postMetrics: true },
  async start() {
    const fake = await startFakeMastodon();
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    const provider = new MastodonProvider(new MastodonNetwork(), new ProviderHttp({}), 2_000);
    const accessToken = `tok-${randomUUID()}`;
    return {
      provider,
      async connect() {
        await control('POST', '/accounts', { access_token: accessToken, username: 'ada' });
        const client = { clientId: 'conformance', clientSecret: 'secret', instanceUrl: fake.origin };
        const identity = await provider.fetchIdentity(client, { accessToken }, AbortSignal.timeout(2_000));
        return connectedAccount('mastodon', identity, { accessToken }, fake.origin);
      },
      async posts() {
        const statuses = (await control('GET', '/statuses')) as FakeMastodonStatus[];
        return statuses.map((status) => ({
          externalId: status.id,
          text: status.text,
          media: status.media_ids.length,
          replyTo: status.in_reply_to_id,
        }));
      },
      async fail(failure) {
        await control('POST', '/failures', { path: STATUSES, method: 'POST', ...failureAnswer(failure) });
      },
      stop: () => fake.stop(),
    };
  },
};
