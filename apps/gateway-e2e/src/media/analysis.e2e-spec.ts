import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MEDIA_ITEM_ANALYSED_SUBJECT, MediaPatterns } from '@social/contracts';
import { randomUUID } from 'node:crypto';
import { imageSize } from 'image-size';
import { baseUrl, call, eventually, expectProblem, locations, type TestUser } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { mediaRpc, type MediaRpc, moovPosition } from '../support/media-rpc.js';
import { makeMp4, mp4Bytes, openSession, pngBytes, sha256Of, uploadMedia } from '../support/media.js';
import { objectExists } from '../support/object-store.js';
import { streamEvents } from '../support/stream-events.js';
import { createTenant, joinWorkspace } from '../support/tenancy.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const content = (id: string, token: string) => fetch(`${baseUrl()}/media/${id}/content`, { headers: { authorization: `Bearer ${token}` } });
/** The stack's PUBLIC_BASE_URL is a loopback address: no public copy a network could fetch, no self-check. */
const LOOPBACK_REASON = expect.stringMatching(/^PUBLIC_BASE_URL \(http:\/\/127\.0\.0\.1:\d+\) is a loopback address/);

describe('media: analysis (videos probed with a poster frame, images at once) and media.library.resolve', () => {
  const db = testDatabase();
  let rpc: MediaRpc;
  beforeAll(async () => {
    rpc = await mediaRpc();
  });
  afterAll(async () => {
    await rpc?.close();
  });

  /** The item once its analysis has ended (ready or failed). */
  const analysed = async (workspaceId: string, id: string): Promise<any> => {
    let item: any;
    await eventually(async () => {
      [item] = await rpc.resolve(workspaceId, [id]);
      expect(item.analysis_status).not.toBe('pending');
    }, 90_000);
    return item;
  };

  for (const faststart of [true, false]) {
    it(
      `probes a real MP4 (moov ${faststart ? 'first' : 'at the end'}): ` +
        'duration, frame rate, dimensions, a JPEG poster at 1 s; the event says so',
      async () => {
        const { owner, workspaceId } = await createTenant();
        const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
        const bytes = makeMp4({ seconds: 2, fps: 25, faststart });
        expect(moovPosition(bytes)).toBe(faststart ? 'first' : 'last');
        const completed = await uploadMedia(owner.token, workspaceId, bytes, 'clip.mp4');
        expect(completed).toMatchObject({ mime_type: 'video/mp4', status: 'ready', size: bytes.length });

        const item = await analysed(workspaceId, completed.id);
        expect(item).toEqual({
          id: completed.id,
          workspace_id: workspaceId,
          status: 'ready',
          filename: 'clip.mp4',
          mime_type: 'video/mp4',
          size: bytes.length,
          sha256: sha256Of(bytes),
          width: 320,
          height: 240,
          duration_ms: 2000,
          frame_rate: 25,
          analysis_status: 'ready',
          analysis_error: '',
          poster_media_id: expect.stringMatching(UUID),
          thumbnail_timestamp_ms: 1000,
          object_key: expect.stringMatching(new RegExp(`^workspaces/${workspaceId}/media/${completed.id}/uploads/`)),
          public_url_ready: false,
          public_url_status: 0,
          public_url_checked_at: '',
          public_url_error: LOOPBACK_REASON,
        });
        // The library item shows what the probe found.
        const read = await call('GET', `/media/${completed.id}`, { token: viewer.token });
        expect(read.body).toMatchObject({ width: 320, height: 240, duration_ms: 2000 });

        // The poster is an item of its own: readable (a JPEG of the video's size) but not in the library.
        const posterId = item.poster_media_id;
        const poster = await content(posterId, viewer.token);
        expect(poster.status).toBe(200);
        expect(poster.headers.get('content-type')).toBe('image/jpeg');
        const jpeg = Buffer.from(await poster.arrayBuffer());
        expect(jpeg.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
        expect(imageSize(jpeg)).toMatchObject({ width: 320, height: 240 });
        expect((await call('GET', `/media/${posterId}`, { token: viewer.token })).body).toMatchObject({
          id: posterId,
          mime_type: 'image/jpeg',
          status: 'ready',
          width: 320,
          height: 240,
        });
        const library = await call('GET', `/media?workspace_id=${workspaceId}`, { token: owner.token });
        expect(library.body.items.map((entry: { id: string }) => entry.id)).toEqual([completed.id]);
        expect(await rpc.resolve(workspaceId, [posterId])).toEqual([]);
        // It goes with its video, not on its own.
        expectProblem(await call('DELETE', `/media/${posterId}`, { token: owner.token }), 409, 'media_is_poster');

        const events = await streamEvents(MEDIA_ITEM_ANALYSED_SUBJECT, 'id', [completed.id]);
        expect(events).toHaveLength(1);
        const { object_key: _key, ...published } = item;
        expect(events[0].payload).toEqual({ ...published, event_id: expect.stringMatching(UUID) });

        expect((await call('DELETE', `/media/${completed.id}`, { token: owner.token })).status).toBe(204);
        expectProblem(await call('GET', `/media/${posterId}`, { token: owner.token }), 404);
        expect(await objectExists(`workspaces/${workspaceId}/media/${posterId}`)).toBe(false);
        expect(await objectExists(`workspaces/${workspaceId}/media/${completed.id}`)).toBe(false);
      },
      120_000,
    );
  }

  it('an image is analysed at completion: ready, frame rate and duration 0, no poster; the event goes out at once', async () => {
    const { owner, workspaceId } = await createTenant();
    const bytes = pngBytes(40, 30);
    const completed = await uploadMedia(owner.token, workspaceId, bytes);
    const [item] = await rpc.resolve(workspaceId, [completed.id]);
    expect(item).toEqual({
      id: completed.id,
      workspace_id: workspaceId,
      status: 'ready',
      filename: 'picture.png',
      mime_type: 'image/png',
      size: bytes.length,
      sha256: sha256Of(bytes),
      width: 40,
      height: 30,
      duration_ms: 0,
      frame_rate: 0,
      analysis_status: 'ready',
      analysis_error: '',
      poster_media_id: '',
      thumbnail_timestamp_ms: 0,
      object_key: expect.stringMatching(new RegExp(`^workspaces/${workspaceId}/media/${completed.id}/`)),
      public_url_ready: false,
      public_url_status: 0,
      public_url_checked_at: '',
      public_url_error: LOOPBACK_REASON,
    });
    await eventually(async () => expect(await streamEvents(MEDIA_ITEM_ANALYSED_SUBJECT, 'id', [completed.id])).toHaveLength(1));
  });

  it('a video the prober cannot read fails its analysis with a reason; nothing else changes', async () => {
    const { owner, workspaceId } = await createTenant();
    // An MP4 whose boxes say 3 s but hold no track: sniffed as video/mp4, refused by the prober.
    const bytes = mp4Bytes(3000, 20_000);
    const completed = await uploadMedia(owner.token, workspaceId, bytes, 'broken.mp4');
    expect(completed).toMatchObject({ mime_type: 'video/mp4', status: 'ready', duration_ms: 3000 });
    const item = await analysed(workspaceId, completed.id);
    expect(item).toMatchObject({
      status: 'ready',
      analysis_status: 'failed',
      poster_media_id: '',
      thumbnail_timestamp_ms: 0,
      frame_rate: 0,
    });
    expect(item.analysis_error).toMatch(/^the video could not be probed: |no video stream/);
    const events = await streamEvents(MEDIA_ITEM_ANALYSED_SUBJECT, 'id', [completed.id]);
    expect(events.map((event) => event.payload.analysis_status)).toEqual(['failed']);
    // Still a library item (it can be deleted, listed, read).
    expect((await call('GET', `/media/${completed.id}`, { token: owner.token })).body).toMatchObject({
      status: 'ready',
      duration_ms: 3000,
    });
  }, 120_000);

  it('resolve answers only the workspace library items among the ids (pending too), in the order asked; bad requests are 422', async () => {
    const owner = await createTenant();
    const stranger = await createTenant();
    const first = await uploadMedia(owner.owner.token, owner.workspaceId, pngBytes(3, 3));
    const second = await uploadMedia(owner.owner.token, owner.workspaceId, pngBytes(4, 4));
    const deleted = await uploadMedia(owner.owner.token, owner.workspaceId, pngBytes(5, 5));
    expect((await call('DELETE', `/media/${deleted.id}`, { token: owner.owner.token })).status).toBe(204);
    const foreign = await uploadMedia(stranger.owner.token, stranger.workspaceId, pngBytes(6, 6));
    const pending = await openSession(owner.owner.token, { workspace_id: owner.workspaceId, filename: 'later.png', size: 100 });

    const items = await rpc.resolve(owner.workspaceId, [
      second.id,
      'not-a-uuid',
      foreign.id,
      randomUUID(),
      deleted.id,
      first.id.toUpperCase(),
      pending.body.media_id,
      first.id,
    ]);
    expect(items.map((item) => item.id)).toEqual([second.id, first.id, pending.body.media_id]);
    expect(items[2]).toMatchObject({
      status: 'pending',
      filename: 'later.png',
      mime_type: '',
      sha256: '',
      analysis_status: 'pending',
      public_url_ready: false,
    });
    expect(await rpc.resolve(owner.workspaceId, [])).toEqual([]);
    expect(await rpc.resolve(stranger.workspaceId, [first.id])).toEqual([]);

    const refused = async (payload: unknown) => {
      const problem = await rpc.problem(MediaPatterns.resolveMedia, payload);
      expect(problem.status).toBe(422);
      return locations(problem.options);
    };
    expect(await refused({ workspace_id: owner.workspaceId, media_ids: Array.from({ length: 101 }, () => randomUUID()) })).toEqual([
      'body.media_ids',
    ]);
    expect(await refused({ workspace_id: 'x', media_ids: [] })).toEqual(['body.workspace_id']);
    expect(await refused({ workspace_id: owner.workspaceId })).toEqual(['body.media_ids']);
    expect(new Set(await refused({ workspace_id: owner.workspaceId, media_ids: [1] }))).toEqual(new Set(['body.media_ids']));
    expect(await refused({ workspace_id: owner.workspaceId, media_ids: [], extra: true })).toEqual(['body.extra']);

    // Sent in an envelope for a user (as creative sends media requests), the user must see the workspace.
    const envelope = (principal: unknown) => ({
      principal,
      params: {},
      query: {},
      body: { workspace_id: owner.workspaceId, media_ids: [first.id] },
      idempotencyKey: null,
      clientIp: '',
    });
    const asOwner = await rpc.ask<{ items: any[] }>(MediaPatterns.resolveMedia, envelope(principalOf(owner.owner)));
    expect(asOwner.items.map((item) => item.id)).toEqual([first.id]);
    expect((await rpc.problem(MediaPatterns.resolveMedia, envelope(principalOf(stranger.owner)))).status).toBe(403);
  });

  it('an analysis left behind by a crashed replica is taken up when its lease runs out (the new poster replaces the old one)', async () => {
    const { owner, workspaceId } = await createTenant();
    const video = await uploadMedia(owner.token, workspaceId, makeMp4({ seconds: 2, fps: 12, faststart: false }), 'again.mp4');
    const first = await analysed(workspaceId, video.id);
    expect(first).toMatchObject({ analysis_status: 'ready', frame_rate: 12 });
    // As a replica that claimed it and died would leave it: pending, under a lease nobody renews.
    await db.query(
      `UPDATE media.media_items SET analysis_status = 'pending', analysis_lease = 'dead-replica/1',
         analysis_lease_expires_at = now() + interval '1 second',
              analysis_next_at = now() WHERE id = $1`,
      [video.id],
    );
    expect((await rpc.resolve(workspaceId, [video.id]))[0].analysis_status).toBe('pending');
    // Woken now, the worker finds the lease still held and sleeps until it runs out (not a whole poll interval).
    await db.query(`SELECT pg_notify('media_analysis:media', '')`);
    const woken = Date.now();
    const again = await analysed(workspaceId, video.id);
    expect(Date.now() - woken).toBeLessThan(20_000);
    expect(again).toMatchObject({
      analysis_status: 'ready',
      analysis_error: '',
      duration_ms: 2000,
      frame_rate: 12,
      thumbnail_timestamp_ms: 1000,
    });
    expect(again.poster_media_id).not.toBe(first.poster_media_id);
    expectProblem(await call('GET', `/media/${first.poster_media_id}`, { token: owner.token }), 404);
    expect(await objectExists(`workspaces/${workspaceId}/media/${first.poster_media_id}`)).toBe(false);
    expect((await content(again.poster_media_id, owner.token)).status).toBe(200);
    const [{ lease }] = (await db.query(`SELECT analysis_lease AS lease FROM media.media_items WHERE id = $1`, [video.id])).rows;
    expect(lease).toBeNull();
  }, 120_000);

  it("another tenant cannot see, read or delete a video's poster", async () => {
    const owner = await createTenant();
    const intruder = await createTenant();
    const video = await uploadMedia(owner.owner.token, owner.workspaceId, makeMp4({ seconds: 1, fps: 10, faststart: true }), 'short.mp4');
    const item = await analysed(owner.workspaceId, video.id);
    expect(item).toMatchObject({ analysis_status: 'ready', duration_ms: 1000, frame_rate: 10, thumbnail_timestamp_ms: 500 });
    await expectTenantIsolation({
      url: `/media/${item.poster_media_id}`,
      ownerToken: owner.owner.token,
      intruderToken: intruder.owner.token,
      ownerView: [`/media/${item.poster_media_id}`, `/media/${video.id}`],
      attempts: [
        { method: 'GET', path: `/media/${item.poster_media_id}/content` },
        { method: 'PUT', path: `/media/${item.poster_media_id}/tags`, body: { tag_ids: [] } },
        { method: 'DELETE' },
        { method: 'DELETE', path: `/media/${video.id}` },
      ],
    });
  }, 120_000);
});

/** The principal the gateway puts in an envelope for a signed-in user. */
const principalOf = (user: TestUser) => ({
  userId: user.id,
  sessionId: randomUUID(),
  isAdmin: false,
  tokenKind: 'session',
  workspaceId: null,
});
