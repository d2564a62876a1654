import type { FakeXAccountRequest, FakeXMedia, FakeXProcessing, FakeXTweet, ScriptedFailure } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { fakeControl } from './fake-control.js';
import { type OAuthApp, providerAppForSuite } from './oauth-account.js';

/**
 * The fake X API global setup starts (E2E_FAKE_X_URL is its control API); publishing reaches it as api.x.com
 * through PROVIDER_API_ORIGINS. It passes the token endpoint and unknown tokens on to the fake OAuth network, so an
 * account is connected as usual (approveAtNetwork) and becomes postable here once its access token is registered
 * with `xAccount`.
 */
const control = fakeControl('E2E_FAKE_X_URL', 'the fake X API');

/** An account of the fake X API reached with `access_token`: its user id and username. */
export function xAccount(account: FakeXAccountRequest): Promise<{ id: string; username: string }> {
  return control('POST', '/accounts', account);
}

/** Every post made at the fake, oldest first. */
export function xTweets(): Promise<FakeXTweet[]> {
  return control('GET', '/tweets');
}

/** Every upload session (initialized, appended, finalized, processed). */
export function xMedia(): Promise<FakeXMedia[]> {
  return control('GET', '/media');
}

/** How videos are processed after FINALIZE (STATUS polls before `succeeded`, `check_after_secs`). */
export async function setXProcessing(processing: Partial<FakeXProcessing>): Promise<void> {
  await control('POST', '/processing', processing);
}

/** The fake's next answer(s) at `path` fail as described (`/2/media/upload/append` or `…/finalize` for any media). */
export async function failNextAtX(failure: ScriptedFailure): Promise<void> {
  await control('POST', '/failures', failure);
}

export async function clearXFailures(): Promise<void> {
  await control('DELETE', '/failures');
}

/** The X provider app, saved for the suite's tests only (providerAppForSuite). Call it in a `describe`. */
export function xAppForSuite(): OAuthApp {
  const app: OAuthApp = { clientId: `x-${randomUUID().slice(0, 8)}`, clientSecret: `x-secret-${randomUUID()}` };
  providerAppForSuite('x', app);
  return app;
}
