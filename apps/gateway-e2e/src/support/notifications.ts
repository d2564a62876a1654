import { expect } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { notificationsTestEnvironment } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { call, TestUser } from './api.js';
import { publicationWhen, schedule, settled, inMs } from './delivery.js';
import { connectSandboxAccount, createPublication } from './publishing.js';
import { type ServiceReplica, startServiceReplica } from './service-replica.js';

/** The caller's inbox page (200), with the query given. */
export async function inbox(token: string, query = ''): Promise<any> {
  const response = await call('GET', `/notifications${query}`, { token });
  expect(response.status).toBe(200);
  return response.body;
}

/** Waits until the caller's inbox holds an item matching `predicate`, and returns it. */
export async function waitForNotification(token: string, predicate: (item: any) => boolean, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await inbox(token, '?limit=100')).notifications.find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching notification within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sets one topic's preference (the others keep their defaults), and optionally the digest time and zone. */
export async function setTopic(
  user: TestUser,
  topic: string,
  preference: { email_frequency: string; in_app: boolean },
  digest: { digest_time?: string; digest_timezone?: string } = {},
) {
  const response = await call('PUT', '/notifications/preferences', {
    token: user.token,
    body: { preferences: { [topic]: preference }, ...digest },
  });
  expect(response.status).toBe(200);
}

/** Schedules a sandbox publication a moment from now and waits until it is published or failed. */
export async function publishSandbox(token: string, workspaceId: string, sourceText: string): Promise<any> {
  const account = await connectSandboxAccount(token, workspaceId);
  const publication = await createPublication(token, workspaceId, { source_text: sourceText });
  const scheduled = await schedule(token, publication.id, { expected_revision: 1, scheduled_at: inMs(1_000), account_ids: [account.id] });
  expect(scheduled.status).toBe(200);
  return publicationWhen(token, publication.id, settled);
}

/** Publishes a durable event to JetStream as a producer's outbox relay would (its own Nats-Msg-Id). */
export async function publishDurableEvent(subject: string, payload: object, msgId = randomUUID()): Promise<void> {
  const nc = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
  try {
    await jetstream(nc).publish(subject, JSON.stringify(payload), { msgID: msgId });
  } finally {
    await nc.close();
  }
}

/** Resolves after `ms`. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Another notifications process on the suites' NATS, database and SMTP sink: it consumes events, sends mail and checks digests too. */
export const startNotificationsReplica = (): Promise<ServiceReplica> =>
  startServiceReplica('notifications', { SMTP_URL: process.env.E2E_SMTP_URL, ...notificationsTestEnvironment() });
