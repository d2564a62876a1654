import { expect } from '@jest/globals';
import type { FakeBlueskyAccountRequest, FakeBlueskyRecord, ScriptedFailure } from '@social/testing';

/**
 * The fake Bluesky PDS global setup starts (E2E_FAKE_BLUESKY_URL is its
 * control API); publishing reaches it as bluesky's entryway and PDS through
 * PROVIDER_API_ORIGINS. Suites create accounts there and read what was posted.
 */
const controlUrl = (): string => {
  const url = process.env.E2E_FAKE_BLUESKY_URL;
  if (!url) throw new Error('E2E_FAKE_BLUESKY_URL is not set: run the e2e suites through jest (global setup starts the fake PDS).');
  return url;
};

async function control(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${controlUrl()}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return response.json();
}

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
