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

/** MEDIA_OBJECT_STORE_MAX_BYTES's default: 8 GiB, room for two of the largest videos (4 GiB each). */
export const DEFAULT_MEDIA_OBJECT_STORE_MAX_BYTES = 8 * 1024 ** 3;

/**
 * The most bytes the media object store bucket may hold (MEDIA_OBJECT_STORE_MAX_BYTES), so media can
 * never fill the disk the event streams need. Read where the bucket is opened, like jetStreamReplicas.
 */
export function mediaObjectStoreMaxBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env['MEDIA_OBJECT_STORE_MAX_BYTES'] || DEFAULT_MEDIA_OBJECT_STORE_MAX_BYTES);
  return Number.isSafeInteger(value) && value >= 1 ? value : DEFAULT_MEDIA_OBJECT_STORE_MAX_BYTES;
}
