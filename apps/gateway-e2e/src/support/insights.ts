import { expect } from '@jest/globals';
import { sandboxDigest } from '@social/contracts';
import { insightsTestEnvironment } from '@social/testing';
import { call, eventually } from './api.js';
import { publicationWhen, publishNow, settled } from './delivery.js';
import { createPublication } from './publishing.js';
import { type ServiceReplica, startServiceReplica } from './service-replica.js';

/** The sandbox's id of an account connected with this handle (what its deterministic numbers are seeded with). */
export const sandboxExternalId = (username: string) => `sandbox-${sandboxDigest(username.toLowerCase())}`;

export const growthUrl = (workspaceId: string, accountId: string) => `/growth?workspace_id=${workspaceId}&account_id=${accountId}`;
export const analyticsUrl = (workspaceId: string, extra: Record<string, string | number> = {}) => {
  const extraParams = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)]));
  return `/analytics?${new URLSearchParams({ workspace_id: workspaceId, ...extraParams })}`;
};

/** Polls E23 until `done` holds, and returns the body. */
export async function growthWhen(
  token: string,
  workspaceId: string,
  accountId: string,
  done: (body: any) => boolean,
  timeoutMs = 15_000,
): Promise<any> {
  let last: any;
  await eventually(async () => {
    const response = await call('GET', growthUrl(workspaceId, accountId), { token });
    expect(response.status).toBe(200);
    last = response.body;
    expect(done(last)).toBe(true);
  }, timeoutMs).catch((error: unknown) => {
    throw new Error(`${String(error)}; last seen: ${JSON.stringify(last)}`);
  });
  return last;
}

/** Polls E24 until `done` holds, and returns the body. */
export async function analyticsWhen(token: string, url: string, done: (body: any) => boolean, timeoutMs = 15_000): Promise<any> {
  let last: any;
  await eventually(async () => {
    const response = await call('GET', url, { token });
    expect(response.status).toBe(200);
    last = response.body;
    expect(done(last)).toBe(true);
  }, timeoutMs).catch((error: unknown) => {
    throw new Error(`${String(error)}; last seen: ${JSON.stringify(last)?.slice(0, 2000)}`);
  });
  return last;
}

/** Publishes a new publication now to the accounts and returns it once published (renditions with external ids). */
export async function publishNowTo(token: string, workspaceId: string, accountIds: string[], text: string): Promise<any> {
  const publication = await createPublication(token, workspaceId, { source_text: text, title: text.slice(0, 40) });
  const started = await publishNow(token, publication.id, { expected_revision: 1, account_ids: accountIds });
  expect(started.status).toBe(200);
  const done = await publicationWhen(token, publication.id, settled);
  expect(done.status).toBe('published');
  return done;
}

export type InsightsReplica = ServiceReplica;

/** Another insights process on the suites' NATS and database: it answers requests, consumes events and runs its own sync worker. */
export const startInsightsReplica = (): Promise<InsightsReplica> => startServiceReplica('insights', insightsTestEnvironment());
