import { expect } from '@jest/globals';
import { deliveryTestEnvironment, waitFor } from '@social/testing';
import { call } from './api.js';
import { type ServiceReplica, startServiceReplica } from './service-replica.js';
import { type StreamEvent, streamEvents } from './stream-events.js';

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

export type RenditionEvent = StreamEvent;

/** Every `durable.publishing.rendition.*` event in the stream naming one of these renditions. */
export const renditionEvents = (renditionIds: string[]): Promise<RenditionEvent[]> =>
  streamEvents('durable.publishing.rendition.>', 'rendition_id', renditionIds);

export type PublishingReplica = ServiceReplica;

/**
 * Another publishing process on the suites' NATS and database: it answers requests and runs its own scheduler.
 * `env` adds to its environment (e.g. fakeNetworkEnvironment, so it reaches the fake networks as the stack does).
 */
export const startPublishingReplica = (env: Record<string, string> = {}): Promise<PublishingReplica> =>
  startServiceReplica('publishing', { ...deliveryTestEnvironment(), ...env });
