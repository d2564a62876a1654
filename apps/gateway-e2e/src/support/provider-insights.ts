import { jetstream } from '@nats-io/jetstream';
import { connect, NatsConnection } from '@nats-io/transport-node';
import { Problem, RpcClient } from '@social/platform';

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
  const client = new RpcClient(nc, 10_000);
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

export interface AccountEvent {
  subject: string;
  payload: Record<string, any>;
}

/** Every `durable.publishing.account.*` event in the stream naming one of these accounts (an ordered, ephemeral consumer). */
export async function accountEvents(accountIds: string[]): Promise<AccountEvent[]> {
  const nc = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
  try {
    const consumer = await jetstream(nc).consumers.get('PLATFORM_EVENTS', { filter_subjects: 'durable.publishing.account.>' });
    const wanted = new Set(accountIds);
    const events: AccountEvent[] = [];
    let pending = (await consumer.info(true)).num_pending;
    while (pending > 0) {
      const batch = await consumer.fetch({ max_messages: Math.min(pending, 500), expires: 2_000 });
      let got = 0;
      for await (const message of batch) {
        got += 1;
        const payload = message.json<Record<string, any>>();
        if (wanted.has(payload.social_account_id)) events.push({ subject: message.subject, payload });
      }
      if (got === 0) break;
      pending -= got;
    }
    return events;
  } finally {
    await nc.close();
  }
}
