import { expect } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { deliveryTestEnvironment, waitFor } from '@social/testing';
import { call } from './api.js';
import { type ServiceReplica, startServiceReplica } from './service-replica.js';

export const schedule = (token: string, id: string, body: unknown) => call('POST', `/publications/${id}/schedule`, { token, body });
export const publishNow = (token: string, id: string, body: unknown) => call('POST', `/publications/${id}/publish-now`, { token, body });
export const cancel = (token: string, id: string, body: unknown) => call('POST', `/publications/${id}/cancel`, { token, body });
export const retry = (token: string, id: string, body: unknown) => call('POST', `/publications/${id}/retry`, { token, body });
export const deliveries = (token: string, id: string) => call('GET', `/publications/${id}/deliveries`, { token });

/** An RFC 3339 time `ms` from now. */
export const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Polls the publication until `done` holds (bounded), and returns it. */
export async function publicationWhen(token: string, id: string, done: (publication: any) => boolean, timeoutMs = 20_000): Promise<any> {
  let last: any;
  try {
    await waitFor(
      `publication ${id} to settle`,
      async () => {
        const response = await call('GET', `/publications/${id}`, { token });
        expect(response.status).toBe(200);
        last = response.body;
        return done(last);
      },
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`${String(error)}; last seen: ${JSON.stringify(last)}`);
  }
  return last;
}

/** Settled: published or failed (nothing left to deliver). */
export const settled = (publication: any) => publication.status === 'published' || publication.status === 'failed';

export interface RenditionEvent {
  subject: string;
  payload: Record<string, any>;
}

/** Every `durable.publishing.rendition.*` event in the stream naming one of these renditions (read with an ordered, ephemeral consumer). */
export async function renditionEvents(renditionIds: string[]): Promise<RenditionEvent[]> {
  const nc = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
  try {
    const consumer = await jetstream(nc).consumers.get('PLATFORM_EVENTS', { filter_subjects: 'durable.publishing.rendition.>' });
    const wanted = new Set(renditionIds);
    const events: RenditionEvent[] = [];
    const info = await consumer.info(true);
    let pending = info.num_pending;
    while (pending > 0) {
      const batch = await consumer.fetch({ max_messages: Math.min(pending, 500), expires: 2_000 });
      let got = 0;
      for await (const message of batch) {
        got += 1;
        const payload = message.json<Record<string, any>>();
        if (wanted.has(payload.rendition_id)) events.push({ subject: message.subject, payload });
      }
      if (got === 0) break;
      pending -= got;
    }
    return events;
  } finally {
    await nc.close();
  }
}

export type PublishingReplica = ServiceReplica;

/**
 * Another publishing process on the suites' NATS and database: it answers requests and runs its own scheduler.
 * `env` adds to its environment (e.g. fakeNetworkEnvironment, so it reaches the fake networks as the stack does).
 */
export const startPublishingReplica = (env: Record<string, string> = {}): Promise<PublishingReplica> =>
  startServiceReplica('publishing', { ...deliveryTestEnvironment(), ...env });
