import { connect, NatsConnection } from '@nats-io/transport-node';
import { CallerTokenSigner, Problem, RpcClient } from '@social/platform';
import { type StreamEvent, streamEvents } from './stream-events.js';

/**
 * Insights' side of the internal provider calls (issue 15): requests straight
 * to publishing over the suite's NATS, as the insights service sends them
 * (nothing of this is reachable over HTTP).
 */
export interface PublishingRpc {
  /** The answer; a problem answer rejects with the Problem. */
  ask<T = any>(pattern: string, payload: unknown): Promise<T>;
  /** The Problem a request is answered with (fails the test when it succeeds). */
  problem(pattern: string, payload: unknown): Promise<Problem>;
  close(): Promise<void>;
}

export async function publishingRpc(): Promise<PublishingRpc> {
  const nc: NatsConnection = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
  // Signed as the insights service signs its requests.
  const client = new RpcClient(nc, 10_000, undefined, CallerTokenSigner.fromPem(process.env.E2E_JWT_PRIVATE_KEY!, 'insights'));
  const ask = <T>(pattern: string, payload: unknown) => client.send<T>(pattern, payload as object, { requestId: `e2e-insights-${Date.now()}` });
  return {
    ask,
    async problem(pattern, payload) {
      const outcome = await ask(pattern, payload).then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      );
      if (!('error' in outcome)) throw new Error(`expected a problem, got ${JSON.stringify(outcome.answer)}`);
      if (!(outcome.error instanceof Problem)) throw outcome.error;
      return outcome.error;
    },
    close: () => nc.drain(),
  };
}

export type AccountEvent = StreamEvent;

/** Every `durable.publishing.account.*` event in the stream naming one of these accounts. */
export const accountEvents = (accountIds: string[]): Promise<AccountEvent[]> => streamEvents('durable.publishing.account.>', 'social_account_id', accountIds);
