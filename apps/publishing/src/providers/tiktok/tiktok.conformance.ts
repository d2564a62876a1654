import { randomUUID } from 'node:crypto';
import { callControl, startFakeTikTok, type FakeTikTokPost } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { TikTokNetwork } from './tiktok.network.js';
import { TikTokProvider } from './tiktok.provider.js';

/** TikTok's error bodies (README.md beside this file: "Errors"), as the photo post's init answers them. */
const tiktokError = (code: string, message: string) => ({ data: {}, error: { code, message, log_id: '202601010000000000ABCDEF' } });
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    rate_limited: { status: 429, body: tiktokError('rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.') },
    server_error: { status: 500, body: tiktokError('internal_error', 'Something went wrong. Please try again later.') },
    auth: { status: 401, body: tiktokError('access_token_invalid', 'The access token is invalid or not found in the request.') },
    validation: { status: 400, body: tiktokError('invalid_params', 'One or more fields in request is invalid.') },
    answer_lost: { drop_after_handling: true },
  })[failure];

/**
 * TikTok against the fake TikTok (libs/testing). A post here is media first: the spec's plainest post is a photo post
 * (its `https://media.invalid/…` URL is a fixture the fake "fetches"), so failures are scripted on the photo init,
 * the call that makes such a post.
 */
export const conformance: ProviderConformanceCase = {
  platform: 'tiktok',
  supports: {
    textOnly: false,
    images: true,
    videos: true,
    threads: false,
    reconcile: 'finds_or_unknown',
    accountMetrics: true,
    postMetrics: true,
  },
  async start() {
    const fake = await startFakeTikTok();
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    const provider = new TikTokProvider(new TikTokNetwork(), new ProviderHttp({ tiktok: fake.origin }), 2_000, {
      firstWaitMs: 10,
      maxWaitMs: 50,
      limitMs: 5_000,
    });
    const accessToken = `act.${randomUUID()}`;
    return {
      provider,
      async connect() {
        await control('POST', '/accounts', { access_token: accessToken, username: 'ada' });
        const client = { clientId: 'conformance', clientSecret: 'secret', instanceUrl: '' };
        const identity = await provider.fetchIdentity(client, { accessToken }, AbortSignal.timeout(2_000));
        return connectedAccount('tiktok', identity, { accessToken });
      },
      async posts() {
        const posts = (await control('GET', '/posts?settle=true')) as FakeTikTokPost[];
        return posts.map((post) => ({
          externalId: post.id,
          text: [post.title, post.description].filter(Boolean).join('\n\n'),
          media: post.media_count,
          replyTo: null,
        }));
      },
      async fail(failure) {
        await control('POST', '/failures', { path: '/v2/post/publish/content/init/', method: 'POST', ...failureAnswer(failure) });
      },
      stop: () => fake.stop(),
    };
  },
};
