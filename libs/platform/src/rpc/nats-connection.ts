import { connect, NatsConnection } from '@nats-io/transport-node';

export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url,
    name,
    // nats.js builds two Error objects per request for async stack traces:
    // measurably ~20% of a gateway's CPU (shared/perf-notes.md).
    noAsyncTraces: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
}
