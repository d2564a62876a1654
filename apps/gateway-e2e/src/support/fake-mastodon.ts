import type {
  FakeMastodonAccountRequest,
  FakeMastodonFollow,
  FakeMastodonStatus,
  FakeMastodonStatusCounts,
  ScriptedFailure,
} from '@social/testing';
import { randomUUID } from 'node:crypto';
import { fakeControl } from './fake-control.js';
import { type OAuthApp, providerAppForSuite } from './oauth-account.js';

/**
 * The fake Mastodon server global setup starts (E2E_FAKE_MASTODON_URL is its
 * control API); publishing reaches it as every mastodon server through
 * PROVIDER_API_ORIGINS. It passes OAuth and unknown tokens on to the fake
 * OAuth network, so an account is connected as usual (approveAtNetwork) and
 * becomes postable here once its access token is registered with
 * `mastodonAccount`.
 */
const control = fakeControl('E2E_FAKE_MASTODON_URL', 'the fake Mastodon server');

/** An account of the fake server reached with `access_token`; answers it as Mastodon would (`id`, `username`…). */
export function mastodonAccount(account: FakeMastodonAccountRequest): Promise<{ id: string; username: string }> {
  return control('POST', '/accounts', account);
}

/** A file the platform can download as media: its URL. */
export async function mastodonMediaFile(name: string, contentType: string, size: number): Promise<string> {
  return (await control('POST', '/files', { name, content_type: contentType, size })).url;
}

/** Every status posted, oldest first. */
export function mastodonStatuses(): Promise<FakeMastodonStatus[]> {
  return control('GET', '/statuses');
}

/** The server's next answer(s) at `path` fail as described. */
export async function failNextAtMastodon(failure: ScriptedFailure): Promise<void> {
  await control('POST', '/failures', failure);
}

export async function clearMastodonFailures(): Promise<void> {
  await control('DELETE', '/failures');
}

/** Sets what GET /api/v1/statuses/:id answers for a status's counters. */
export async function setMastodonStatusCounts(statusId: string, counts: FakeMastodonStatusCounts): Promise<void> {
  await control('POST', `/statuses/${statusId}/counts`, counts);
}

/** Every follow made at the server, oldest first. */
export function mastodonFollows(): Promise<FakeMastodonFollow[]> {
  return control('GET', '/follows');
}

export interface MastodonApp extends OAuthApp {
  /** The server's host name (`<tag>-<random>.example`): usernames read `<name>@<server>`. */
  server: string;
  instanceUrl: string;
}

/**
 * A mastodon provider app for one suite's own server, saved for the suite's tests only (providerAppForSuite).
 * Call it in a `describe`.
 */
export function mastodonAppForSuite(tag: string): MastodonApp {
  const server = `${tag}-${randomUUID().slice(0, 8)}.example`;
  const app: MastodonApp = {
    server,
    instanceUrl: `https://${server}`,
    clientId: `ma-${tag}-${randomUUID().slice(0, 8)}`,
    clientSecret: `ma-secret-${randomUUID()}`,
  };
  providerAppForSuite('mastodon', app);
  return app;
}
