/**
 * How many copies of each JetStream stream, KV bucket and object store the cluster keeps
 * (JETSTREAM_REPLICAS: 1 on a single NATS server, 3 in the production overlay's cluster).
 * Read where each store is created, so every app agrees without passing it around;
 * start-up validation (`jetStreamSettings`) has already refused a malformed value.
 */
export function jetStreamReplicas(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env['JETSTREAM_REPLICAS'] || '1');
  return Number.isInteger(value) && value >= 1 && value <= 5 ? value : 1;
}
