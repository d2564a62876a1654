import { randomUUID } from 'node:crypto';
import { callControl, startFakeBluesky, type FakeBlueskyRecord } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { BlueskyProvider } from './bluesky.provider.js';

const CREATE_RECORD = '/xrpc/com.atproto.repo.createRecord';
const POST = 'app.bsky.feed.post';

/** The PDS's documented XRPC answers (README.md beside this file: errors are `{error, message}`, limits in `RateLimit-*`). */
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    rate_limited: {
      status: 429,
      body: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
      // RateLimit-Reset is in epoch seconds.
      headers: { 'ratelimit-limit': '5000', 'ratelimit-remaining': '0', 'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 3) },
    },
    server_error: { status: 500, body: { error: 'InternalServerError', message: 'Internal Server Error' } },
    auth: { status: 401, body: { error: 'AuthenticationRequired', message: 'Invalid identifier or password' } },
    validation: { status: 400, body: { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record' } },
    answer_lost: { drop_after_handling: true },
  })[failure];

const uriOf = (record: FakeBlueskyRecord) => record.uri;

/** Bluesky against the fake PDS (libs/testing), signed in with a handle and an app password. */
export const conformance: ProviderConformanceCase = {
  platform: 'bluesky',
  supports: { textOnly: true, images: true, videos: true, threads: true, reconcile: 'finds', accountMetrics: true, postMetrics: true },
  async start() {
    const fake = await startFakeBluesky();
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    const provider = new BlueskyProvider({ bluesky: fake.origin }, new ProviderHttp({ bluesky: fake.origin }), 2_000);
    const handle = 'ada.bsky.social';
    const password = `app-${randomUUID()}`;
    return {
      provider,
      async connect() {
        await control('POST', '/accounts', { handle, password, display_name: 'Ada' });
        const signedIn = await provider.signIn(
          { instanceUrl: 'https://bsky.social', identifier: handle, password },
          AbortSignal.timeout(2_000),
        );
        return connectedAccount('bluesky', signedIn.identity, signedIn.grant, signedIn.instanceUrl);
      },
      async posts() {
        const records = ((await control('GET', '/records')) as FakeBlueskyRecord[]).filter((record) => record.collection === POST);
        return records.map((record) => {
          const value = record.value as {
            text?: string;
            embed?: { images?: unknown[]; video?: unknown };
            reply?: { parent?: { uri?: string } };
          };
          return {
            externalId: uriOf(record),
            text: value.text ?? '',
            media: (value.embed?.images?.length ?? 0) + (value.embed?.video ? 1 : 0),
            replyTo: value.reply?.parent?.uri ?? null,
          };
        });
      },
      async fail(failure) {
        await control('POST', '/failures', { path: CREATE_RECORD, method: 'POST', ...failureAnswer(failure) });
      },
      stop: () => fake.stop(),
    };
  },
};
