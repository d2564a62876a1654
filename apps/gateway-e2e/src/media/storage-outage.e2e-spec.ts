import { afterAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { Objm, StorageType } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { call, expectProblem } from '../support/api.js';
import { openSession, pngBytes, putBytes, uploadMedia } from '../support/media.js';
import { createTenant } from '../support/tenancy.js';

/** Removes the media bucket's stream (storage "down"); `restore` makes an empty bucket again. */
async function storageDown(): Promise<{ restore: () => Promise<void> }> {
  const nc = await connect({ servers: process.env.E2E_NATS_URL_IN_USE! });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete('OBJ_media');
  return {
    restore: async () => {
      await new Objm(nc).create('media', { storage: StorageType.File });
      await nc.close();
    },
  };
}

describe('media: storage outages', () => {
  let outage: { restore: () => Promise<void> } | undefined;
  afterAll(async () => {
    await outage?.restore();
  });

  it(
    'answer 503 storage_unavailable with Retry-After at the upload URL, ' + 'completion, content and delete (never 500); the item is kept',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const item = await uploadMedia(owner.token, workspaceId, pngBytes(5, 5));
      const bytes = pngBytes(6, 6);
      const pending = await openSession(owner.token, { workspace_id: workspaceId, filename: 'p.png', size: bytes.length });
      expect((await putBytes(pending.body.upload.url, bytes)).status).toBe(204);

      outage = await storageDown();
      const unavailable = (response: { status: number; headers: Headers; body: unknown }) => {
        expectProblem(response, 503, 'storage_unavailable');
        expect(response.headers.get('retry-after')).toBe('5');
      };
      unavailable(await putBytes(pending.body.upload.url, bytes));
      unavailable(
        await call('POST', `/media/upload-session/${pending.body.media_id}/complete`, {
          token: owner.token,
          body: { workspace_id: workspaceId },
        }),
      );
      const content = await fetch(`${process.env.E2E_BASE_URL}/media/${item.id}/content`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      unavailable({ status: content.status, headers: content.headers, body: await content.json() });
      unavailable(await call('DELETE', `/media/${item.id}`, { token: owner.token }));
      // Nothing was lost on the way: the item is still there.
      expect((await call('GET', `/media/${item.id}`, { token: owner.token })).body).toMatchObject({ id: item.id, status: 'ready' });
      await outage.restore();
      outage = undefined;
    },
  );
});
