import { expect } from '@jest/globals';
import type { SocialPlatform } from '@social/contracts';
import { callControl, type FakeServer } from '@social/testing';
import { randomUUID } from 'node:crypto';
import {
  type ConformanceFailure,
  type ConformanceNetwork,
  type ConformancePost,
  connectedAccount,
} from '../conformance/provider-conformance.js';
import type { OAuthProvider } from '../oauth/oauth-provider.js';
import { DeliveryError, type ProviderAccount } from '../social-provider.js';
import type { ContainerPolling } from './graph-containers.js';

/*
 * What the Graph networks' conformance cases and delivery specs share (threads/, instagram/, facebook/). Named
 * `*.conformance.ts` so the build leaves it out (it runs against the fakes); the conformance spec reads only
 * `<network>/<network>.conformance.ts`.
 */

/** A Graph API error body as Meta answers it (Graph API "Handling errors"). */
export const graphErrorBody = (code: number, message: string, subcode?: number) => ({
  error: { message, type: 'OAuthException', code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: 'AbCdEfGh123' },
});

/** Container (or video) polling quick enough for a spec. */
export const SPEC_POLLING: ContainerPolling = { firstWaitMs: 20, maxWaitMs: 100, limitMs: 5_000 };

export type FakeControl = (method: string, path: string, body?: unknown) => Promise<unknown>;

/**
 * A conformance run for a Graph network where a token is one person's own profile (Threads, Instagram): the account is
 * made at the fake's POST /accounts and connected through `fetchIdentity`; failures are scripted on the network's
 * publish call (`publishPath` of the connected user id) with the answers the network documents.
 */
export function profileRun(options: {
  platform: SocialPlatform;
  fake: FakeServer;
  provider: OAuthProvider;
  username: string;
  publishPath: (userId: string) => string;
  failureAnswer: (failure: ConformanceFailure) => Record<string, unknown>;
  posts: (control: FakeControl) => Promise<ConformancePost[]>;
}): ConformanceNetwork {
  const { fake, provider } = options;
  const control: FakeControl = (method, path, body) => callControl(fake.controlUrl, method, path, body);
  const accessToken = `tok-${randomUUID()}`;
  let userId = '';
  return {
    provider,
    async connect() {
      await control('POST', '/accounts', { access_token: accessToken, username: options.username });
      const client = { clientId: 'conformance', clientSecret: 'secret', instanceUrl: '' };
      const identity = await provider.fetchIdentity(client, { accessToken }, AbortSignal.timeout(2_000));
      userId = identity.externalId;
      return connectedAccount(options.platform, identity, { accessToken });
    },
    posts: () => options.posts(control),
    async fail(failure) {
      await control('POST', '/failures', { path: options.publishPath(userId), method: 'POST', ...options.failureAnswer(failure) });
    },
    stop: () => fake.stop(),
  };
}

/** A fresh account at a Graph fake (POST /accounts with a new token), as ProviderAccounts hands it to the adapter. */
export async function fakeProfileAccount(
  control: FakeControl,
  platform: SocialPlatform,
  username: string,
): Promise<{ account: ProviderAccount; token: string; userId: string }> {
  const token = `tok-${randomUUID()}`;
  const created = (await control('POST', '/accounts', { access_token: token, username })) as { id: string };
  const account = { id: randomUUID(), platform, externalId: created.id, username, instanceUrl: '', grant: { accessToken: token } };
  return { account, token, userId: created.id };
}

/** The DeliveryFailure a delivery call failed with (the spec fails when it did not fail so). */
export async function failureOf(promise: Promise<unknown>): Promise<DeliveryError['failure']> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return (error as DeliveryError).failure;
}
