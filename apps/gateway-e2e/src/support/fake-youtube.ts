import type { FakeYouTubeAccountRequest, FakeYouTubeSession, FakeYouTubeVideo, ScriptedFailure } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { fakeControl } from './fake-control.js';
import { type OAuthApp, providerAppForSuite } from './oauth-account.js';

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

/** The YouTube provider app, saved for the suite's tests only (providerAppForSuite). Call it in a `describe`. */
export function youtubeAppForSuite(): OAuthApp {
  const app: OAuthApp = { clientId: `yt-${randomUUID().slice(0, 8)}`, clientSecret: `yt-secret-${randomUUID()}` };
  providerAppForSuite('youtube', app);
  return app;
}
