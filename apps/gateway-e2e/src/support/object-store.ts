import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';

/** Whether the e2e stack's media bucket holds an object under `key` (read straight from NATS, not through the API). */
export async function objectExists(key: string): Promise<boolean> {
  const url = process.env.E2E_NATS_URL_IN_USE;
  if (!url) throw new Error('E2E_NATS_URL_IN_USE is not set');
  const nc = await connect({ servers: url });
  try {
    const store = await new Objm(nc).open('media');
    const info = await store.info(key);
    return !!info && !info.deleted;
  } finally {
    await nc.close();
  }
}
