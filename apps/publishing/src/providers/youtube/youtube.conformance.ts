import { randomUUID } from 'node:crypto';
import { callControl, googleError, startFakeYouTube, type FakeYouTubeVideo } from '@social/testing';
import { type ConformanceFailure, connectedAccount, type ProviderConformanceCase } from '../conformance/provider-conformance.js';
import { ProviderHttp } from '../provider-http.js';
import { YouTubeNetwork } from './youtube.network.js';
import { YouTubeProvider } from './youtube.provider.js';

const UPLOAD_PATH = '/upload/youtube/v3/videos';
/** Status queries after an interruption: a lost answer is dropped this many times more, so it stays lost. */
const RESUME_ATTEMPTS = 2;

/**
 * YouTube's documented answers (README.md beside this file: the Data API's error reference), scripted at the fake on
 * the call that opens the upload session, or, for a lost answer, on the PUT that carries the last byte and each
 * status query after it (so the adapter cannot learn the outcome and must leave it ambiguous).
 */
const failureAnswer = (failure: ConformanceFailure): Record<string, unknown> =>
  ({
    rate_limited: {
      method: 'POST',
      status: 403,
      body: googleError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.'),
    },
    server_error: { method: 'POST', status: 503, body: googleError(503, 'backendError', 'Backend Error', 'global') },
    auth: {
      method: 'POST',
      status: 401,
      body: googleError(401, 'authError', 'Invalid Credentials', 'global'),
    },
    validation: {
      method: 'POST',
      status: 400,
      body: googleError(400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.'),
    },
    answer_lost: { method: 'PUT', drop_after_handling: true, times: 1 + RESUME_ATTEMPTS },
  })[failure];

/** YouTube against the fake Data API (libs/testing): one video a post, uploaded in 256 KiB chunks. */
export const conformance: ProviderConformanceCase = {
  platform: 'youtube',
  supports: { textOnly: false, images: false, videos: true, threads: false, reconcile: 'finds', accountMetrics: true, postMetrics: true },
  async start() {
    const fake = await startFakeYouTube();
    const control = (method: string, path: string, body?: unknown) => callControl(fake.controlUrl, method, path, body);
    const provider = new YouTubeProvider(new YouTubeNetwork(), new ProviderHttp({ youtube: fake.origin }), 2_000, {
      upload: { chunkBytes: 256 * 1024, resumeAttempts: RESUME_ATTEMPTS, backoffMs: 10 },
    });
    const accessToken = `tok-${randomUUID()}`;
    return {
      provider,
      async connect() {
        await control('POST', '/accounts', { access_token: accessToken, channels: [{ title: 'Ada Builds', handle: '@adabuilds' }] });
        const client = { clientId: 'conformance', clientSecret: 'secret', instanceUrl: '' };
        const [identity] = await provider.fetchIdentities(client, { accessToken }, AbortSignal.timeout(2_000));
        return connectedAccount('youtube', identity, { accessToken });
      },
      async posts() {
        const videos = (await control('GET', '/videos')) as FakeYouTubeVideo[];
        return videos.map((video) => ({
          externalId: video.id,
          text: `${video.title}\n\n${video.description}`,
          media: 1,
          replyTo: null,
        }));
      },
      async fail(failure) {
        await control('POST', '/failures', { path: UPLOAD_PATH, ...failureAnswer(failure) });
      },
      stop: () => fake.stop(),
    };
  },
};
