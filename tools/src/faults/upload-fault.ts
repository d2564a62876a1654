/**
 * kill -9 of media while a client uploads a file (E17, then the signed PUT, then completion; docs/decisions.md). The
 * gateway streams the bytes into the NATS object store itself, then asks media to make them the session's
 * (commitUpload): the kill lands while the bytes stream, so that question meets no media. The client retries as a
 * real one would (the whole PUT again on a 5xx or a cut connection, then completion), and its file must be the
 * ready item's. Then no orphan bytes: after the sweep, every object of the media bucket is some item's
 * `object_key`, and every chunk in the bucket's stream belongs to a live object.
 */
import { createHash, randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { connectNats, MEDIA_OBJECT_BUCKET } from '@social/platform';
import pg from 'pg';
import sharp from 'sharp';
import type { FaultEnvironment } from './environment.js';
import { callApi, type Fault, type PlatformProcesses, seconds, sleep, type Tenant, until } from './fault.js';

/** Random pixels barely compress: a PNG of a few MiB, sent in chunks. */
const WIDTH = 1_400;
const HEIGHT = 1_000;
const CHUNK_BYTES = 64 * 1024;
/** Pace of the client's body (a slow link): the upload takes seconds, so media dies while it streams. */
const CHUNK_EVERY_MS = 15;
/** Media is killed once this share of the body has been sent. */
const KILL_AT = 0.4;
const CLIENT_GIVE_UP_MS = 90_000;
const SWEEP_LIMIT_MS = 30_000;

interface Orphans {
  objects: number;
  bytes: number;
  /** Chunk messages of the bucket's stream that belong to no live object (an abandoned put's leftovers). */
  chunks: number;
}

interface ClientFigures {
  putAttempts: string[];
  completeAttempts: string[];
  sha256?: string;
  mediaId?: string;
  completedAt?: number;
}

export function uploadKill(env: FaultEnvironment, processes: PlatformProcesses, tenant: Tenant): Fault {
  let bytes = Buffer.alloc(0);
  const client: ClientFigures = { putAttempts: [], completeAttempts: [] };
  let killedAt = 0;
  let restartedAt = 0;
  /** Right after the client's completion, before a sweep pass (every second here) had a chance. */
  let atCompletion: Orphans | undefined;
  return {
    name: 'kill -9 media during an upload',
    inject: async () => {
      bytes = await sharp({
        create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 64 } },
      })
        .png({ compressionLevel: 1 })
        .toBuffer();
      const [media] = processes.pidsOf('media');
      if (!media) throw new Error('no media process to kill');
      let reached!: () => void;
      const killPoint = new Promise<void>((resolve) => (reached = resolve));
      let killed!: () => void;
      const killDone = new Promise<void>((resolve) => (killed = resolve));
      const supervisor = (async () => {
        await killPoint;
        await processes.kill(media);
        killedAt = Date.now();
        killed();
        // A supervisor (Kubernetes, systemd) starts it again after a moment.
        await sleep(1_000);
        await processes.start('media', 'media (restarted after the upload kill)');
        restartedAt = Date.now();
      })();
      // The client pauses at the kill point until media is dead: the kill lands mid-body, whatever the machine's speed.
      const upload = uploadAsAClient(env.baseUrl, tenant, bytes, client, async () => {
        reached();
        await killDone;
      });
      await Promise.all([supervisor, upload]);
      atCompletion = await countOrphans(env);
    },
    verify: async () => {
      const problems: string[] = [];
      const expectedSha = createHash('sha256').update(bytes).digest('hex');
      if (!client.mediaId)
        problems.push(
          `the client never completed its upload (PUTs: ${client.putAttempts.join(', ')}; ` +
            `completions: ${client.completeAttempts.join(', ')})`,
        );
      else if (client.sha256 !== expectedSha) problems.push(`the ready item's sha256 ${client.sha256} is not the file's ${expectedSha}`);
      else {
        const content = await fetch(`${env.baseUrl}/media/${client.mediaId}/content`, {
          headers: { authorization: `Bearer ${tenant.session.token}` },
        });
        const stored = createHash('sha256')
          .update(Buffer.from(await content.arrayBuffer()))
          .digest('hex');
        if (content.status !== 200 || stored !== expectedSha)
          problems.push(`GET /media/${client.mediaId}/content answered ${content.status} with other bytes`);
      }
      let after = await countOrphans(env);
      await until(async () => {
        after = await countOrphans(env);
        return after.objects === 0 && after.chunks === 0;
      }, SWEEP_LIMIT_MS);
      if (after.objects || after.chunks) {
        problems.push(
          `orphan bytes ${seconds(SWEEP_LIMIT_MS)} after the upload: ` +
            `${after.objects} objects (${after.bytes} bytes) no item references, ${after.chunks} stray chunks`,
        );
      }
      const figures =
        `upload: ${(bytes.length / 1024 ** 2).toFixed(1)} MiB, ` +
        `media killed at ${Math.round(KILL_AT * 100)} % of the body and back ${seconds(restartedAt - killedAt)} later; ` +
        `PUTs ${client.putAttempts.join(', ')}; completions ${client.completeAttempts.join(', ')}` +
        (client.completedAt ? ` (ready ${seconds(client.completedAt - killedAt)} after the kill)` : '') +
        (atCompletion
          ? `; at completion ${atCompletion.objects} orphan objects (${atCompletion.bytes} bytes) and ${atCompletion.chunks} stray chunks`
          : '') +
        `, after the sweep ${after.objects} and ${after.chunks}`;
      return { problems, figures };
    },
  };
}

const retryable = (status: number) => status === 0 || status >= 500 || status === 429;

/**
 * What a client does: opens the session (retried with its Idempotency-Key), PUTs the file (again from the start after
 * a 5xx or a cut connection, as the session allows: "sending again replaces what was sent"), then completes it
 * (again after a 5xx; a 409 upload_incomplete sends the file again). `atKillPoint` runs once, mid-body, on the first PUT.
 */
async function uploadAsAClient(
  baseUrl: string,
  tenant: Tenant,
  bytes: Buffer,
  figures: ClientFigures,
  atKillPoint: () => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + CLIENT_GIVE_UP_MS;
  const key = `fault-upload-${randomUUID()}`;
  let session: { media_id: string; complete_url: string; upload: { url: string; headers: Record<string, string> } } | undefined;
  for (let backoff = 200; !session; backoff = Math.min(backoff * 2, 2_000)) {
    const res = await fetch(`${baseUrl}/media/upload-session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.session.token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ workspace_id: tenant.workspaceId, filename: 'client-upload.png', size: bytes.length, mime_type: 'image/png' }),
    }).catch(() => undefined);
    if (res?.status === 201) session = (await res.json()) as typeof session;
    else if (res && !retryable(res.status)) throw new Error(`E17 answered ${res.status}: ${await res.text()}`);
    else if (Date.now() > deadline) throw new Error('E17 never answered 201');
    else await sleep(backoff);
  }
  let pauseOnce: (() => Promise<void>) | undefined = atKillPoint;
  for (let backoff = 200; ; backoff = Math.min(backoff * 2, 2_000)) {
    const status = await put(session.upload.url, session.upload.headers, bytes, pauseOnce);
    pauseOnce = undefined;
    figures.putAttempts.push(String(status || 'cut'));
    if (status === 204) {
      const completed = await complete(baseUrl, tenant, session.complete_url, figures, deadline);
      if (completed) return;
    } else if (!retryable(status)) throw new Error(`the upload PUT answered ${status}`);
    if (Date.now() > deadline) throw new Error(`the upload never completed in ${seconds(CLIENT_GIVE_UP_MS)}`);
    await sleep(backoff);
  }
}

/** One PUT of the whole file, paced; the status, or 0 when the connection failed. */
async function put(url: string, headers: Record<string, string>, bytes: Buffer, atKillPoint?: () => Promise<void>): Promise<number> {
  const killAt = Math.floor((bytes.length * KILL_AT) / CHUNK_BYTES);
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index * CHUNK_BYTES >= bytes.length) return controller.close();
      if (index === killAt && atKillPoint) await atKillPoint();
      controller.enqueue(bytes.subarray(index * CHUNK_BYTES, (index + 1) * CHUNK_BYTES));
      index++;
      await sleep(CHUNK_EVERY_MS);
    },
  });
  try {
    const res = await fetch(url, {
      method: 'PUT',
      headers: { ...headers, 'content-length': String(bytes.length) },
      body,
      duplex: 'half',
      signal: AbortSignal.timeout(60_000),
    } as RequestInit);
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** Completes the session, retrying 5xx; false when the bytes must be sent again (409 upload_incomplete). */
async function complete(baseUrl: string, tenant: Tenant, completeUrl: string, figures: ClientFigures, deadline: number): Promise<boolean> {
  for (let backoff = 200; ; backoff = Math.min(backoff * 2, 2_000)) {
    const { status, body } = await callApi<{ id?: string; sha256?: string; status?: string; code?: string }>(
      baseUrl,
      'POST',
      new URL(completeUrl).pathname,
      {
        token: tenant.session.token,
        body: { workspace_id: tenant.workspaceId },
      },
    ).catch(() => ({ status: 0, body: undefined }));
    figures.completeAttempts.push(String(status || 'cut'));
    if (status === 200 && body?.status === 'ready') {
      figures.mediaId = body.id;
      figures.sha256 = body.sha256;
      figures.completedAt = Date.now();
      return true;
    }
    if (status === 409 && body?.code === 'upload_incomplete') return false;
    if (!retryable(status)) throw new Error(`completion answered ${status}: ${JSON.stringify(body)}`);
    if (Date.now() > deadline) throw new Error('completion never succeeded');
    await sleep(backoff);
  }
}

/** Objects of the media bucket that no media item names, and chunks of the bucket's stream that no live object owns. */
async function countOrphans(env: FaultEnvironment): Promise<Orphans> {
  const nc = await connectNats(env.nats.url, 'faults-orphans');
  const db = new pg.Client({ connectionString: env.postgres.url });
  await db.connect();
  try {
    const store = await new Objm(nc).open(MEDIA_OBJECT_BUCKET);
    const objects = (await store.list()).filter((info) => !info.deleted);
    const { rows } = await db.query<{ object_key: string }>(`SELECT object_key FROM media.media_items WHERE object_key <> ''`);
    const referenced = new Set(rows.map((row) => row.object_key));
    const unreferenced = objects.filter((info) => !referenced.has(info.name));
    const stream = `OBJ_${MEDIA_OBJECT_BUCKET}`;
    const info = await (await jetstreamManager(nc)).streams.info(stream, { subjects_filter: `$O.${MEDIA_OBJECT_BUCKET}.C.>` });
    const live = new Set(objects.map((object) => `$O.${MEDIA_OBJECT_BUCKET}.C.${object.nuid}`));
    const strayChunks = Object.entries(info.state.subjects ?? {})
      .filter(([subject]) => !live.has(subject))
      .reduce((sum, [, count]) => sum + count, 0);
    return { objects: unreferenced.length, bytes: unreferenced.reduce((sum, object) => sum + object.size, 0), chunks: strayChunks };
  } finally {
    await db.end();
    await nc.close();
  }
}
