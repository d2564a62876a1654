import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';

/**
 * The objects of the e2e stack's media bucket named `key` or under `key/` (an item's uploads live under its
 * key: `<key>/uploads/<nonce>`), read straight from NATS, not through the API.
 */
export async function objectsUnder(key: string): Promise<string[]> {
  const url = process.env.E2E_NATS_URL_IN_USE;
  if (!url) throw new Error('E2E_NATS_URL_IN_USE is not set');
  const nc = await connect({ servers: url });
  try {
    const store = await new Objm(nc).open('media');
    const names: string[] = [];
    for (const info of await store.list()) {
      if (!info.deleted && (info.name === key || info.name.startsWith(`${key}/`))) names.push(info.name);
    }
    return names;
  } finally {
    await nc.close();
  }
}

/** Whether the media bucket holds an object under `key` (see objectsUnder). */
export async function objectExists(key: string): Promise<boolean> {
  return (await objectsUnder(key)).length > 0;
}

/** Stores `bytes` as the object `key` of the media bucket, straight into NATS (what a lost commit leaves behind). */
export async function putObject(key: string, bytes: Buffer): Promise<void> {
  const url = process.env.E2E_NATS_URL_IN_USE;
  if (!url) throw new Error('E2E_NATS_URL_IN_USE is not set');
  const nc = await connect({ servers: url });
  try {
    const store = await new Objm(nc).open('media');
    await store.putBlob({ name: key }, bytes);
  } finally {
    await nc.close();
  }
}
