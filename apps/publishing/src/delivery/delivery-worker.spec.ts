import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { ClaimLoop, openServiceDatabase } from '@social/platform';
import { createTemporaryDatabase, TemporaryDatabase } from '@social/testing';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import pino from 'pino';
import sharp from 'sharp';
import type { DataSource } from 'typeorm';
import type { PublishingConfig } from '../config.js';
import { publishingMigrations } from '../migrations/index.js';
import type { ProviderRegistry } from '../providers/provider-registry.js';
import { DeliveryError, type OutgoingPost, type ProviderAccount, type PublishedPost } from '../providers/social-provider.js';
import type { ProviderAccounts } from '../social-accounts/provider-accounts.js';
import { DeliveryMedia } from './delivery-media.js';
import { DeliveryWorker } from './delivery-worker.js';
import type { ResolvedMedia } from '@social/contracts';
import { readyMedia } from '../media/resolved-media.fixtures.js';
import type { MediaLibraryClient } from '../media/media-library.client.js';

/**
 * The scheduler's leases against real PostgreSQL: a network call whose lease
 * could not be renewed is never sent a second time while it may still land
 * (docs/decisions.md "Delivery": at most one post per rendition).
 */
describe('DeliveryWorker: leases', () => {
  let db: TemporaryDatabase;
  let dataSource: DataSource;
  const workers: DeliveryWorker[] = [];
  let gates: Array<() => void> = [];

  /** A network whose calls hang until released, and which never has the post (so a reconcile resends). */
  const network = {
    calls: [] as string[],
    posts: [] as OutgoingPost[],
    signals: [] as Array<AbortSignal | undefined>,
    publish: (_account: ProviderAccount, post: OutgoingPost, signal?: AbortSignal): Promise<PublishedPost> => {
      network.calls.push(post.marker);
      network.posts.push(post);
      network.signals.push(signal);
      if (network.failWith) return Promise.reject(network.failWith);
      return new Promise((resolve) =>
        gates.push(() => resolve({ externalId: `ext-${network.calls.length}`, externalUrl: 'https://sandbox.example/p', parts: [] })),
      );
    },
    findPost: async (): Promise<null> => null,
    /** When set, every call fails with it at once. */
    failWith: undefined as DeliveryError | undefined,
  };
  const registry = { get: () => network } as unknown as ProviderRegistry;
  const config = {
    DELIVERY_LEASE_MS: 1_000,
    DELIVERY_POLL_MS: 50,
    DELIVERY_CONCURRENCY: 4,
    DELIVERY_RETRY_BASE_MS: 100,
    PROVIDER_TIMEOUT_MS: 500,
  } as unknown as PublishingConfig;
  const logger = pino({ level: 'silent' });
  /** The media library as media.library.resolve answers it (items by id), and the bytes storage holds by object key. */
  const library = {
    items: new Map<string, ResolvedMedia>(),
    resolve: async (_workspaceId: string, ids: string[]) =>
      new Map(ids.filter((id) => library.items.has(id)).map((id) => [id, library.items.get(id)!])),
  };
  const objects = new Map<string, Buffer>();
  const storage = { read: async (key: string) => (objects.has(key) ? Readable.from([objects.get(key)!]) : null) };
  /** media.public-urls.issue as the media service answers it (no network in these specs fetches by URL). */
  const publicUrls = { send: async (_subject: string, body: { media_id: string }) => ({ url: `https://media.invalid/${body.media_id}` }) };
  const deliveryMedia = new DeliveryMedia(storage as never, publicUrls as never);
  const resolved = (id: string, extra: Partial<ResolvedMedia> = {}): ResolvedMedia =>
    readyMedia(id, { workspace_id: '', filename: 'photo.jpg', ...extra });
  /** Attaches media to the rendition's only part, as rendition_segments.media holds them. */
  const attach = (renditionId: string, mediaIds: string[]) =>
    dataSource.query(`UPDATE rendition_segments SET media = $2 WHERE rendition_id = $1`, [
      renditionId,
      JSON.stringify(
        mediaIds.map((id, index) => ({ media_id: id, alt_text: `alt ${index}`, role: 'attachment', display_order: index, settings: {} })),
      ),
    ]);

  /** A worker whose lease renewals never reach the database (a starved pool, or a replica that died mid-call). */
  function worker(renews: boolean): DeliveryWorker {
    // Nothing read with the claim (`rows`): each rendition's account is found when it is sent.
    const accounts = {
      rows: async () => new Map(),
      find: async (id: string) => ({ id, platform: 'sandbox' }),
    } as unknown as ProviderAccounts;
    const created = new DeliveryWorker(
      dataSource,
      registry,
      accounts,
      library as unknown as MediaLibraryClient,
      deliveryMedia,
      config,
      logger,
    );
    if (!renews) (created as unknown as { renewLeases: () => Promise<void> }).renewLeases = async () => undefined;
    workers.push(created);
    return created;
  }

  async function dueRendition(): Promise<string> {
    const now = new Date();
    const accountId = randomUUID();
    const publicationId = randomUUID();
    const renditionId = randomUUID();
    await dataSource.query(
      `INSERT INTO social_accounts (id, workspace_id, platform, external_id, username, display_name, avatar_url, instance_url, status,
         credentials, connected_by, created_at, updated_at)
       VALUES ($1, $2, 'sandbox', $4, 'tester', '', '', '', 'active', '', $2, $3, $3)`,
      [accountId, randomUUID(), now, `ext-${accountId}`],
    );
    await dataSource.query(
      `INSERT INTO publications (id, workspace_id, status, content_profile, title, source_text, created_by, created_at, updated_at)
       VALUES ($1, $2, 'scheduled', 'short_text', '', 'hello', $2, $3, $3)`,
      [publicationId, randomUUID(), now],
    );
    await dataSource.query(
      `INSERT INTO renditions (id, publication_id, social_account_id, platform, target_key, profile, status, title, body,
         delivery_target_key, created_at, updated_at, next_action_at)
       VALUES ($1, $2, $3, 'sandbox', $5, 'short_text', 'scheduled', '', 'hello', 'sandbox:tester', $4, $4, $4)`,
      [renditionId, publicationId, accountId, now, `sandbox:${accountId}`],
    );
    await dataSource.query(
      `INSERT INTO rendition_segments (id, rendition_id, position, status, body) VALUES ($1, $2, 0, 'scheduled', 'hello')`,
      [randomUUID(), renditionId],
    );
    return renditionId;
  }

  const rendition = async (id: string) =>
    (
      await dataSource.query(
        `SELECT r.delivery_state, r.status, r.delivery_next_reconciliation_at AS reconcile_at, a.started_at
           FROM renditions r LEFT JOIN delivery_attempts a ON a.id = r.delivery_current_attempt_id WHERE r.id = $1`,
        [id],
      )
    )[0] as { delivery_state: string; status: string; reconcile_at: Date | null; started_at: Date | null };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  async function until(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await sleep(25);
    }
  }

  beforeAll(async () => {
    db = await createTemporaryDatabase(
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      'delivery_worker_spec',
    );
    dataSource = await openServiceDatabase({
      url: db.url,
      schema: 'publishing',
      entities: [],
      migrations: publishingMigrations,
      poolSize: 8,
    });
  });

  afterEach(async () => {
    for (const release of gates) release();
    gates = [];
    await Promise.all(workers.splice(0).map((w) => w.beforeApplicationShutdown()));
    network.calls = [];
    network.signals = [];
    network.failWith = undefined;
    network.posts = [];
    library.items.clear();
    objects.clear();
    await dataSource.query(`DELETE FROM publications`);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('does not claim again a rendition its own call is still delivering when the lease could not be renewed', async () => {
    const id = await dueRendition();
    const replica = worker(false);
    replica.onApplicationBootstrap();
    await until(() => network.calls.length === 1);
    // The lease (1 s) runs out while the call hangs; the replica keeps polling every 50 ms.
    await sleep(2_000);
    expect(network.calls).toEqual([id]);
    gates.shift()?.();
    await until(async () => (await rendition(id)).delivery_state === 'live');
    expect(network.calls).toEqual([id]);
  });

  it('reconciles a rendition taken over in `submitted` only once the first call can no longer land', async () => {
    const id = await dueRendition();
    const dying = worker(false);
    dying.onApplicationBootstrap();
    await until(() => network.calls.length === 1);
    const survivor = worker(true);
    survivor.onApplicationBootstrap();
    // The first replica's lease (1 s) runs out; the survivor takes the rendition over (however slow the machine).
    await until(async () => (await rendition(id)).delivery_state === 'ambiguous', 15_000);
    await sleep(500);
    // Nothing sent again: the first call may still land until its start + the call's bound (max(5 × 500 ms, 30 s)).
    expect(network.calls).toEqual([id]);
    const state = await rendition(id);
    expect(state.delivery_state).toBe('ambiguous');
    expect(state.reconcile_at!.getTime()).toBeGreaterThanOrEqual(state.started_at!.getTime() + 30_000);
    // The first replica's answer arrives after the takeover: its lease is gone, so it writes nothing.
    gates.shift()?.();
    await sleep(300);
    expect((await rendition(id)).delivery_state).toBe('ambiguous');
  });

  it('aborts the call in flight when its lease is found taken over at renewal', async () => {
    const id = await dueRendition();
    const replica = worker(true);
    replica.onApplicationBootstrap();
    await until(() => network.calls.length === 1);
    expect(network.signals[0]?.aborted).toBe(false);
    // Another claim took it (as after a lease that ran out): the next renewal finds the lease not this call's.
    await dataSource.query(
      `UPDATE renditions SET lease_owner = 'someone-else/1', lease_expires_at = now() + interval '1 minute' WHERE id = $1`,
      [id],
    );
    await until(() => network.signals[0]?.aborted === true, 2_000);
    await sleep(200);
    // The abandoned call wrote nothing: the rendition is the other claim's.
    expect(await rendition(id)).toMatchObject({ delivery_state: 'submitted' });
    expect(network.calls).toEqual([id]);
  });

  it("spending the last attempt after a reconcile leaves the previous attempt's outcome as it was", async () => {
    const id = await dueRendition();
    const attemptId = randomUUID();
    // As after a reconcile found nothing: queued again, five attempts spent, the last one ambiguous.
    await dataSource.query(
      `INSERT INTO delivery_attempts (id, rendition_id, publication_id, attempt, started_at, finished_at, outcome, error_code)
       SELECT $1, id, publication_id, 5, now() - interval '1 minute', now() - interval '50 seconds', 'ambiguous', 'delivery_outcome_unknown'
       FROM renditions WHERE id = $2`,
      [attemptId, id],
    );
    await dataSource.query(
      `UPDATE renditions SET delivery_current_attempt_id = $2, delivery_current_attempt_number = 5, round_attempts = 5 WHERE id = $1`,
      [id, attemptId],
    );
    worker(true).onApplicationBootstrap();
    await until(async () => (await rendition(id)).status === 'failed');
    const [row] = await dataSource.query(`SELECT delivery_terminal_reason, error_code FROM renditions WHERE id = $1`, [id]);
    expect(row).toEqual({ delivery_terminal_reason: 'retries_exhausted', error_code: 'retries_exhausted' });
    const [attempt] = await dataSource.query(`SELECT outcome, error_code FROM delivery_attempts WHERE id = $1`, [attemptId]);
    expect(attempt).toEqual({ outcome: 'ambiguous', error_code: 'delivery_outcome_unknown' });
    expect(network.calls).toEqual([]);
  });

  it('after a claim failure the backoff holds: wake-ups (NOTIFY, finished deliveries) do not cut it short', async () => {
    const replica = worker(true);
    let claims = 0;
    (replica as unknown as { claim: () => Promise<never> }).claim = async () => {
      claims += 1;
      throw new Error('connection refused');
    };
    replica.onApplicationBootstrap();
    await until(() => claims === 1, 5_000);
    const failedAt = Date.now();
    // The first backoff is 500 ms; wake it every 20 ms for most of it (measured, so a loaded machine cannot make it pass the backoff).
    while (Date.now() - failedAt < 350) {
      (replica as unknown as { claims: ClaimLoop }).claims.wake();
      await sleep(20);
    }
    expect(claims).toBe(1);
    await until(() => claims === 2, 1_000);
  });

  it(
    "a network that refuses the account's authorization at publish " + 'marks the account reconnect_required and tells its owner, once',
    async () => {
      network.failWith = new DeliveryError({
        outcome: 'rejected',
        kind: 'auth',
        code: 'provider_auth_rejected',
        message: "sandbox refused the account's authorization; reconnect the account.",
        httpStatus: 401,
      });
      const first = await dueRendition();
      const [{ social_account_id: accountId }] = await dataSource.query(`SELECT social_account_id FROM renditions WHERE id = $1`, [first]);
      // A second rendition of the same account, failing the same way.
      const second = await dueRendition();
      await dataSource.query(`UPDATE renditions SET social_account_id = $2 WHERE id = $1`, [second, accountId]);
      worker(true).onApplicationBootstrap();
      await until(async () => (await rendition(first)).status === 'failed' && (await rendition(second)).status === 'failed');
      const [account] = await dataSource.query(`SELECT status FROM social_accounts WHERE id = $1`, [accountId]);
      expect(account.status).toBe('reconnect_required');
      const events = await dataSource.query(
        `SELECT payload FROM outbox_events WHERE subject = 'durable.publishing.account.needs-attention'
           AND payload->>'social_account_id' = $1`,
        [accountId],
      );
      expect(events).toEqual([
        {
          payload: {
            workspace_id: expect.any(String),
            social_account_id: accountId,
            platform: 'sandbox',
            reason: 'grant_rejected',
            occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          },
        },
      ]);
    },
  );

  describe('media', () => {
    const state = async (id: string) =>
      (
        await dataSource.query(
          `SELECT status, delivery_state, round_attempts, error_code, error_kind, media_waiting_since, next_action_at FROM renditions
           WHERE id = $1`,
          [id],
        )
      )[0];

    it(
      "sends each part's media fitted to the network: " +
        'a 4000×3000 JPEG reaches the sandbox at 2000×1500, without EXIF, with its alt text',
      async () => {
        const id = await dueRendition();
        const mediaId = randomUUID();
        const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#48a' } })
          .withMetadata({ exif: { IFD0: { Make: 'Camera' } } })
          .jpeg()
          .toBuffer();
        objects.set(`objects/${mediaId}`, photo);
        library.items.set(mediaId, resolved(mediaId, { width: 4000, height: 3000, size: photo.length }));
        await attach(id, [mediaId]);
        worker(true).onApplicationBootstrap();
        await until(() => network.calls.length === 1);
        const [media] = network.posts[0].parts[0].media;
        expect(media).toMatchObject({ mediaId, kind: 'image', mimeType: 'image/jpeg', altText: 'alt 0', width: 2000, height: 1500 });
        expect(media.size).toBeLessThanOrEqual(1_000_000);
        const delivered = Buffer.concat(await (await media.open()).toArray());
        const meta = await sharp(delivered).metadata();
        expect({ width: meta.width, height: meta.height, exif: meta.exif }).toEqual({ width: 2000, height: 1500, exif: undefined });
        gates.shift()?.();
        await until(async () => (await state(id)).delivery_state === 'live');
      },
    );

    it(
      'waits while an item is being analysed (no attempt counted), ' + 'then fails media_not_ready 10 minutes after the first try',
      async () => {
        const id = await dueRendition();
        const mediaId = randomUUID();
        library.items.set(mediaId, resolved(mediaId, { analysis_status: 'pending' }));
        await attach(id, [mediaId]);
        worker(true).onApplicationBootstrap();
        await until(async () => (await state(id)).media_waiting_since !== null);
        const waiting = await state(id);
        expect(waiting).toMatchObject({ status: 'scheduled', delivery_state: 'queued', round_attempts: 0 });
        expect(waiting.next_action_at.getTime()).toBeGreaterThan(Date.now());
        expect(network.calls).toEqual([]);
        // Ten minutes later, still analysing.
        await dataSource.query(
          `UPDATE renditions SET media_waiting_since = now() - interval '10 minutes 1 second', next_action_at = now() WHERE id = $1`,
          [id],
        );
        await until(async () => (await state(id)).status === 'failed');
        expect(await state(id)).toMatchObject({
          delivery_state: 'rejected',
          error_code: 'media_not_ready',
          error_kind: 'validation',
          round_attempts: 0,
          media_waiting_since: null,
        });
        expect(network.calls).toEqual([]);
      },
    );

    it('goes on once the analysis has ended, and clears the wait', async () => {
      const id = await dueRendition();
      const mediaId = randomUUID();
      objects.set(
        `objects/${mediaId}`,
        await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
          .png()
          .toBuffer(),
      );
      library.items.set(mediaId, resolved(mediaId, { mime_type: 'image/png', analysis_status: 'pending' }));
      await attach(id, [mediaId]);
      worker(true).onApplicationBootstrap();
      await until(async () => (await state(id)).media_waiting_since !== null);
      library.items.set(mediaId, resolved(mediaId, { mime_type: 'image/png', analysis_status: 'ready' }));
      await until(() => network.calls.length === 1, 8_000);
      gates.shift()?.();
      await until(async () => (await state(id)).delivery_state === 'live');
      expect(await state(id)).toMatchObject({ media_waiting_since: null, round_attempts: 1 });
    });

    it('rejects media_not_found when an item is gone from the library, sending nothing', async () => {
      const id = await dueRendition();
      await attach(id, [randomUUID()]);
      worker(true).onApplicationBootstrap();
      await until(async () => (await state(id)).status === 'failed');
      expect(await state(id)).toMatchObject({
        delivery_state: 'rejected',
        error_code: 'media_not_found',
        error_kind: 'validation',
        round_attempts: 0,
      });
      expect(network.calls).toEqual([]);
    });

    it('rejects media_not_found (within its attempt) when the bytes are gone from storage', async () => {
      const id = await dueRendition();
      const mediaId = randomUUID();
      library.items.set(mediaId, resolved(mediaId));
      await attach(id, [mediaId]);
      worker(true).onApplicationBootstrap();
      await until(async () => (await state(id)).status === 'failed');
      expect(await state(id)).toMatchObject({ error_code: 'media_not_found', round_attempts: 1 });
      expect(network.calls).toEqual([]);
    });
  });
});
