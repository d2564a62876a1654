import type { FakeBlueskyAccountRequest, FakeBlueskyPostCounts, FakeBlueskyRecord, ScriptedFailure } from '@social/testing';
import { fakeControl } from './fake-control.js';

/**
 * The fake Bluesky PDS global setup starts (E2E_FAKE_BLUESKY_URL is its
 * control API); publishing reaches it as bluesky's entryway and PDS through
 * PROVIDER_API_ORIGINS. Suites create accounts there and read what was posted.
 */
const control = fakeControl('E2E_FAKE_BLUESKY_URL', 'the fake PDS');

/** An account at the fake PDS; answers its DID. */
export async function createBlueskyAccount(account: FakeBlueskyAccountRequest): Promise<string> {
  return (await control('POST', '/accounts', account)).did;
}

/** Every record created at the PDS, oldest first. */
export function blueskyRecords(): Promise<FakeBlueskyRecord[]> {
  return control('GET', '/records');
}

/** The PDS's next answer(s) at `path` (`/xrpc/<nsid>`) fail as described. */
export async function failNextAtBluesky(failure: ScriptedFailure): Promise<void> {
  await control('POST', '/failures', failure);
}

export async function clearBlueskyFailures(): Promise<void> {
  await control('DELETE', '/failures');
}

/** Sets what app.bsky.feed.getPosts answers for a post's counters. */
export async function setBlueskyPostCounts(uri: string, counts: FakeBlueskyPostCounts): Promise<void> {
  await control('POST', '/post-counts', { uri, ...counts });
}

/** Every access token the PDS issued so far expires now (the adapter must renew the session). */
export async function expireBlueskyAccessTokens(): Promise<void> {
  await control('POST', '/expire-access');
}
