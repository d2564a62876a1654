import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

export interface StreamEvent {
  subject: string;
  payload: Record<string, any>;
}

/**
 * Every event of `PLATFORM_EVENTS` under `filter` whose payload's `key` is one of `ids`, in stream order (read with
 * an ordered, ephemeral consumer).
 */
export async function streamEvents(filter: string, key: string, ids: string[]): Promise<StreamEvent[]> {
  const nc = await connect({ servers: process.env.E2E_NATS_URL_IN_USE });
  try {
    const consumer = await jetstream(nc).consumers.get('PLATFORM_EVENTS', { filter_subjects: filter });
    const wanted = new Set(ids);
    const events: StreamEvent[] = [];
    let pending = (await consumer.info(true)).num_pending;
    while (pending > 0) {
      const batch = await consumer.fetch({ max_messages: Math.min(pending, 500), expires: 2_000 });
      let got = 0;
      for await (const message of batch) {
        got += 1;
        const payload = message.json<Record<string, any>>();
        if (wanted.has(payload[key])) events.push({ subject: message.subject, payload });
      }
      if (got === 0) break;
      pending -= got;
    }
    return events;
  } finally {
    await nc.close();
  }
}
