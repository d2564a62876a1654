import {
  ENVIRONMENT_PROVIDER_APPS,
  type FakeYouTubeAccountRequest,
  type FakeYouTubeSession,
  type FakeYouTubeVideo,
  type ScriptedFailure,
} from '@social/testing';
import { fakeControl } from './fake-control.js';
import type { OAuthApp } from './oauth-account.js';

/**
 * The fake YouTube Data API global setup starts (E2E_FAKE_YOUTUBE_URL is its control API); publishing reaches it as
 * www.googleapis.com (and Google's token endpoint) through PROVIDER_API_ORIGINS. It passes the token endpoint and
 * unknown tokens on to the fake OAuth network, so a Google account is connected as usual (approveAtNetwork) and its
 * channels are listed here once its access token is registered with `youtubeAccount`.
 */
const control = fakeControl('E2E_FAKE_YOUTUBE_URL', 'the fake YouTube API');

/** A Google account of the fake reached with `access_token`: its channels' ids, in order. */
export function youtubeAccount(account: FakeYouTubeAccountRequest): Promise<{ channels: string[] }> {
  return control('POST', '/accounts', account);
}

/** Every video made at the fake, oldest first (size and SHA-256 of the bytes received). */
export function youtubeVideos(): Promise<FakeYouTubeVideo[]> {
  return control('GET', '/videos');
}

/** Every upload session (chunks, status queries, interruptions). */
export function youtubeSessions(): Promise<FakeYouTubeSession[]> {
  return control('GET', '/sessions');
}

/** The next chunk carrying byte `at_offset` is cut there (the connection closes mid-chunk). */
export async function interruptYouTubeUploadAt(atOffset: number): Promise<void> {
  await control('POST', '/interruptions', { at_offset: atOffset });
}

export async function failNextAtYouTube(failure: ScriptedFailure): Promise<void> {
  await control('POST', '/failures', failure);
}

export async function clearYouTubeFailures(): Promise<void> {
  await control('DELETE', '/failures');
}

/**
 * The YouTube provider app: the e2e stack configures it through the environment (PROVIDER_APPS, for the admin
 * suites), so it cannot be saved per suite; the suites connect through that one.
 */
export function youtubeApp(): OAuthApp {
  const app = ENVIRONMENT_PROVIDER_APPS.find((candidate) => candidate.provider === 'youtube')!;
  return { clientId: app.client_id, clientSecret: app.client_secret };
}
