import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { adminCall, registerAdmin } from '../support/admin.js';
import { call, eventually, expectProblem, locations, RFC3339_MS } from '../support/api.js';
import { testDatabase } from '../support/database.js';
import { expectTenantIsolation } from '../support/isolation.js';
import { mp4Bytes, openSession, putBytes, sha256Of } from '../support/media.js';
import { expectMatchesOwnSchema } from '../support/schemas.js';
import { createTenant, createWorkspace, joinWorkspace } from '../support/tenancy.js';
import { getProject, newAsset, newProject, replaceProject, reserveAsset, videoDocument } from './video-fixtures.js';

const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const listAssets = (token: string, projectId: string) => call('GET', `/video-projects/${projectId}/assets`, { token });
const getAsset = (token: string, projectId: string, assetId: string) =>
  call('GET', `/video-projects/${projectId}/assets/${assetId}`, { token });

/** Opens an E17 session for the asset, sends `bytes` and completes it: the completion's answer. */
async function uploadForAsset(token: string, workspaceId: string, assetId: string, bytes: Buffer, filename = 'clip.mp4') {
  const session = await openSession(token, { workspace_id: workspaceId, filename, size: bytes.length, project_asset_id: assetId });
  expect(session.status).toBe(201);
  expect(session.body.project_asset_id).toBe(assetId);
  expect((await putBytes(session.body.upload.url, bytes, session.body.upload.headers)).status).toBe(204);
  const completed = await call('POST', `/media/upload-session/${session.body.media_id}/complete`, {
    token,
    body: { workspace_id: workspaceId },
  });
  return { session: session.body, completed };
}

describe('creative: project assets (E20) and their media', () => {
  const db = testDatabase();

  it('E20 reserves a pending asset (201, Location, every field); list and read it; required follows the head document', async () => {
    const { owner, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const response = await reserveAsset(owner.token, project.id, {
      workspace_id: workspaceId,
      original_filename: 'Interview take 3.MOV',
      mime_type: 'video/QuickTime',
      size: 123_456,
      stable_media_id: 'ios-asset-42',
      device_id: 'iPhone 15',
      preparation: { proxy: { height: 720 }, trim: [0, 12.5] },
    });
    expect(response.status).toBe(201);
    await expectMatchesOwnSchema(response.body, 'ProjectAsset');
    expect(response.body).toEqual({
      $schema: expect.stringMatching(/\/api\/v1\/schemas\/ProjectAsset\.json$/),
      id: expect.stringMatching(UUID7),
      workspace_id: workspaceId,
      project_id: project.id,
      status: 'pending',
      attention_reason: '',
      media_id: '',
      mime_type: 'video/quicktime',
      original_filename: 'Interview take 3.MOV',
      preparation: { proxy: { height: 720 }, trim: [0, 12.5] },
      required: false,
      sha256: '',
      size: 123_456,
      stable_media_id: 'ios-asset-42',
      device_id: 'iPhone 15',
      uploaded_by_user_id: owner.id,
      created_at: expect.stringMatching(RFC3339_MS),
      updated_at: response.body.created_at,
    });
    expect(response.headers.get('location')).toBe(`/video-projects/${project.id}/assets/${response.body.id}`);
    expect((await getAsset(owner.token, project.id, response.body.id)).body).toEqual(response.body);
    const list = await listAssets(owner.token, project.id);
    await expectMatchesOwnSchema(list.body, 'ProjectAssetList');
    const { $schema: _schema, ...asset } = response.body;
    expect(list.body).toEqual({ $schema: expect.stringMatching(/ProjectAssetList\.json$/), assets: [asset] });
    // The document names it: required, and the project waits for it.
    const replaced = await replaceProject(owner.token, project.id, {
      workspace_id: workspaceId,
      document: videoDocument([asset.id]),
      expected_head_revision: 1,
    });
    expect(replaced.body).toEqual(expect.objectContaining({ sync_status: 'pending', attention_reason: '' }));
    expect((await getAsset(owner.token, project.id, asset.id)).body.required).toBe(true);
    // Defaults for the optional members.
    const plain = await newAsset(owner.token, project.id, workspaceId);
    expect(plain).toEqual(expect.objectContaining({ stable_media_id: '', device_id: '', preparation: {}, required: false }));
  });

  it.each([
    ['nothing', {}, ['body.workspace_id', 'body.original_filename', 'body.mime_type', 'body.size']],
    ['a size of 0 and a filename too long', { size: 0, original_filename: 'x'.repeat(256) }, ['body.size', 'body.original_filename']],
    ['a mime type that is not one', { mime_type: 'video' }, ['body.mime_type']],
    ['a preparation that is not an object', { preparation: [1] }, ['body.preparation']],
    ['a preparation over 16 KiB', { preparation: { blob: 'x'.repeat(17_000) } }, ['body.preparation']],
    ['an unknown member', { required: true }, ['body.required']],
  ])('E20 refuses %s (422)', async (_label, change, expected) => {
    const { owner, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const base =
      Object.keys(change).length === 0 ? {} : { workspace_id: workspaceId, original_filename: 'a.mp4', mime_type: 'video/mp4', size: 10 };
    const problem = expectProblem(await reserveAsset(owner.token, project.id, { ...base, ...change }), 422, 'validation_failed');
    expect(new Set(locations(problem))).toEqual(new Set(expected));
    expect((await listAssets(owner.token, project.id)).body.assets).toEqual([]);
  });

  it("E20 names the project's own workspace (422); an unknown project is 404", async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const sibling = await createWorkspace(owner, organizationId, 'Sibling');
    const problem = expectProblem(
      await reserveAsset(owner.token, project.id, { workspace_id: sibling, original_filename: 'a.mp4', mime_type: 'video/mp4', size: 10 }),
      422,
    );
    expect(problem.errors).toEqual([
      { location: 'body.workspace_id', message: "must be the video project's own workspace", value: sibling },
    ]);
    expectProblem(
      await reserveAsset(owner.token, randomUUID(), {
        workspace_id: workspaceId,
        original_filename: 'a.mp4',
        mime_type: 'video/mp4',
        size: 10,
      }),
      404,
      'not_found',
    );
    expectProblem(
      await reserveAsset(owner.token, 'not-a-uuid', {
        workspace_id: workspaceId,
        original_filename: 'a.mp4',
        mime_type: 'video/mp4',
        size: 10,
      }),
      404,
      'not_found',
    );
  });

  it(
    'bytes through E17 make the asset ready with its media item; ' +
      'the project syncs; the item stays out of the library but members read it',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
      const bytes = mp4Bytes(12_345);
      const project = await newProject(owner.token, workspaceId);
      const asset = await newAsset(owner.token, project.id, workspaceId, { size: bytes.length });
      const withClip = await replaceProject(owner.token, project.id, {
        workspace_id: workspaceId,
        document: videoDocument([asset.id]),
        expected_head_revision: 1,
      });
      expect(withClip.body.sync_status).toBe('pending');
      const { session, completed } = await uploadForAsset(owner.token, workspaceId, asset.id, bytes);
      expect(completed.status).toBe(200);
      expect(completed.body).toEqual(
        expect.objectContaining({ id: session.media_id, status: 'ready', mime_type: 'video/mp4', duration_ms: 12_345, size: bytes.length }),
      );
      await eventually(async () => {
        expect((await getAsset(owner.token, project.id, asset.id)).body).toEqual({
          ...asset,
          status: 'ready',
          media_id: session.media_id,
          sha256: sha256Of(bytes),
          mime_type: 'video/mp4',
          required: true,
          updated_at: expect.stringMatching(RFC3339_MS),
        });
      }, 10_000);
      expect((await getProject(owner.token, project.id)).body).toEqual(
        expect.objectContaining({ sync_status: 'synced', attention_reason: '' }),
      );
      // Never in the workspace library, however it is asked; readable by the workspace's members.
      expect((await call('GET', `/media?workspace_id=${workspaceId}`, { token: owner.token })).body.items).toEqual([]);
      expect((await call('GET', `/media/${session.media_id}`, { token: viewer.token })).body).toEqual(
        expect.objectContaining({ id: session.media_id, status: 'ready' }),
      );
      const content = await fetch(`${process.env.E2E_BASE_URL}/media/${session.media_id}/content`, {
        headers: { authorization: `Bearer ${viewer.token}` },
      });
      expect(content.status).toBe(200);
      expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);
      // A library upload of the same bytes is its own item (no deduplication across the line, either way).
      const library = await openSession(owner.token, {
        workspace_id: workspaceId,
        filename: 'same.mp4',
        size: bytes.length,
        sha256: sha256Of(bytes),
      });
      expect(library.status).toBe(201);
      expect(library.body.deduped).toBe(false);
      // Not a library item: tags do not count it, nor does the admin directory.
      const tag = await call('POST', '/media/tags', { token: owner.token, body: { workspace_id: workspaceId, name: 'Raw' } });
      expect((await call('PUT', `/media/${session.media_id}/tags`, { token: owner.token, body: { tag_ids: [tag.body.id] } })).status).toBe(
        200,
      );
      expect((await call('GET', `/media/tags?workspace_id=${workspaceId}`, { token: owner.token })).body.tags).toEqual([
        expect.objectContaining({ id: tag.body.id, item_count: 0 }),
      ]);
      const admin = await registerAdmin();
      const page = await adminCall('GET', `/admin/users?search=${encodeURIComponent(owner.email)}`, { token: admin.token });
      expect(page.body.users).toEqual([expect.objectContaining({ id: owner.id, media_item_count: 0, media_bytes: 0 })]);
      // Its item goes only with the asset.
      expectProblem(await call('DELETE', `/media/${session.media_id}`, { token: owner.token }), 409, 'media_of_project_asset');
      // A ready asset takes no other upload.
      const again = await openSession(owner.token, {
        workspace_id: workspaceId,
        filename: 'again.mp4',
        size: bytes.length,
        project_asset_id: asset.id,
      });
      expect(expectProblem(again, 409, 'project_asset_not_pending').errors).toEqual([
        expect.objectContaining({ location: 'body.project_asset_id' }),
      ]);
    },
  );

  it('E17 with project_asset_id: unknown is 422, another size 422 at body.size, a second open upload 409; viewers 403', async () => {
    const { owner, organizationId, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const asset = await newAsset(owner.token, project.id, workspaceId, { size: 5_000 });
    const sibling = await createWorkspace(owner, organizationId, 'Sibling');
    for (const [workspace, assetId] of [
      [workspaceId, randomUUID()],
      [sibling, asset.id],
    ]) {
      const problem = expectProblem(
        await openSession(owner.token, { workspace_id: workspace, filename: 'a.mp4', size: 5_000, project_asset_id: assetId }),
        422,
        'validation_failed',
      );
      expect(problem.errors).toEqual([
        { location: 'body.project_asset_id', message: 'must be a project asset of a video project in this workspace', value: assetId },
      ]);
    }
    const wrongSize = expectProblem(
      await openSession(owner.token, { workspace_id: workspaceId, filename: 'a.mp4', size: 5_001, project_asset_id: asset.id }),
      422,
    );
    expect(wrongSize.errors).toEqual([
      { location: 'body.size', message: 'must be the size reserved for the project asset (5000)', value: 5_001 },
    ]);
    expect(
      locations(
        expectProblem(
          await openSession(owner.token, { workspace_id: workspaceId, filename: 'a.mp4', size: 5_000, project_asset_id: 'x' }),
          422,
        ),
      ),
    ).toEqual(['body.project_asset_id']);
    const viewer = await joinWorkspace(owner, workspaceId, 'viewer');
    expectProblem(
      await openSession(viewer.token, { workspace_id: workspaceId, filename: 'a.mp4', size: 5_000, project_asset_id: asset.id }),
      403,
      'insufficient_role',
    );
    const first = await openSession(owner.token, { workspace_id: workspaceId, filename: 'a.mp4', size: 5_000, project_asset_id: asset.id });
    expect(first.status).toBe(201);
    const second = expectProblem(
      await openSession(owner.token, { workspace_id: workspaceId, filename: 'b.mp4', size: 5_000, project_asset_id: asset.id }),
      409,
      'project_asset_upload_exists',
    );
    expect(locations(second)).toEqual(['body.project_asset_id']);
    // Its project in the trash: no upload.
    const other = await newAsset(owner.token, project.id, workspaceId, { size: 5_000 });
    await call('DELETE', `/video-projects/${project.id}`, { token: owner.token });
    expectProblem(
      await openSession(owner.token, { workspace_id: workspaceId, filename: 'c.mp4', size: 5_000, project_asset_id: other.id }),
      409,
      'project_trashed',
    );
  });

  it('refused bytes make the asset failed (content_refused) and the project needs attention (asset_failed)', async () => {
    const { owner, workspaceId } = await createTenant();
    const script = Buffer.from('#!/bin/sh\necho not a video\n'.repeat(20));
    const project = await newProject(owner.token, workspaceId);
    const asset = await newAsset(owner.token, project.id, workspaceId, { size: script.length });
    await replaceProject(owner.token, project.id, {
      workspace_id: workspaceId,
      document: videoDocument([asset.id]),
      expected_head_revision: 1,
    });
    const { session, completed } = await uploadForAsset(owner.token, workspaceId, asset.id, script);
    expect(locations(expectProblem(completed, 422, 'validation_failed'))).toEqual(['body.content']);
    await eventually(async () => {
      expect((await getAsset(owner.token, project.id, asset.id)).body).toEqual(
        expect.objectContaining({ status: 'failed', attention_reason: 'content_refused', media_id: '' }),
      );
    }, 10_000);
    expect((await getProject(owner.token, project.id)).body).toEqual(
      expect.objectContaining({ sync_status: 'attention', attention_reason: 'asset_failed' }),
    );
    // The session is still open: a real video of the same size sent again completes it, and the asset recovers.
    const video = mp4Bytes(1_500, script.length - 152);
    expect(video.length).toBe(script.length);
    expect((await putBytes(session.upload.url, video, session.upload.headers)).status).toBe(204);
    const retried = await call('POST', `/media/upload-session/${session.media_id}/complete`, {
      token: owner.token,
      body: { workspace_id: workspaceId },
    });
    expect(retried.status).toBe(200);
    await eventually(async () => {
      expect((await getAsset(owner.token, project.id, asset.id)).body).toEqual(
        expect.objectContaining({ status: 'ready', attention_reason: '', media_id: session.media_id, sha256: sha256Of(video) }),
      );
    }, 10_000);
    expect((await getProject(owner.token, project.id)).body).toEqual(
      expect.objectContaining({ sync_status: 'synced', attention_reason: '' }),
    );
  });

  it('an upload session that expires makes its asset failed (upload_expired)', async () => {
    const { owner, workspaceId } = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const asset = await newAsset(owner.token, project.id, workspaceId, { size: 100 });
    const session = await openSession(owner.token, {
      workspace_id: workspaceId,
      filename: 'late.mp4',
      size: 100,
      project_asset_id: asset.id,
    });
    expect(session.status).toBe(201);
    await db.query(`UPDATE media.media_items SET expires_at = now() - interval '1 second' WHERE id = $1`, [session.body.media_id]);
    await eventually(async () => {
      expect((await getAsset(owner.token, project.id, asset.id)).body).toEqual(
        expect.objectContaining({ status: 'failed', attention_reason: 'upload_expired' }),
      );
    }, 10_000);
  });

  it(
    'deleting an asset (204) deletes its media item; a deleted asset no ' +
      'longer counts for sync_status, even if the document still names it',
    async () => {
      const { owner, workspaceId } = await createTenant();
      const bytes = mp4Bytes(2_000);
      const project = await newProject(owner.token, workspaceId);
      const asset = await newAsset(owner.token, project.id, workspaceId, { size: bytes.length });
      const waiting = await newAsset(owner.token, project.id, workspaceId);
      const { session } = await uploadForAsset(owner.token, workspaceId, asset.id, bytes);
      await eventually(async () => expect((await getAsset(owner.token, project.id, asset.id)).body.status).toBe('ready'), 10_000);
      await replaceProject(owner.token, project.id, {
        workspace_id: workspaceId,
        document: videoDocument([asset.id, waiting.id]),
        expected_head_revision: 1,
      });
      expect((await getProject(owner.token, project.id)).body.sync_status).toBe('pending');
      // The pending one goes: what the project still requires is ready.
      expect((await call('DELETE', `/video-projects/${project.id}/assets/${waiting.id}`, { token: owner.token })).status).toBe(204);
      expect((await getProject(owner.token, project.id)).body).toEqual(
        expect.objectContaining({ sync_status: 'synced', attention_reason: '' }),
      );
      const deleted = await call('DELETE', `/video-projects/${project.id}/assets/${asset.id}`, { token: owner.token });
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBe('');
      expect((await getProject(owner.token, project.id)).body).toEqual(
        expect.objectContaining({ sync_status: 'synced', attention_reason: '', head_revision: 2 }),
      );
      expectProblem(await getAsset(owner.token, project.id, asset.id), 404, 'not_found');
      expectProblem(await call('DELETE', `/video-projects/${project.id}/assets/${asset.id}`, { token: owner.token }), 404, 'not_found');
      await eventually(
        async () => expectProblem(await call('GET', `/media/${session.media_id}`, { token: owner.token }), 404, 'not_found'),
        10_000,
      );
    },
  );

  it(
    'required: the assets whose id the document holds as a whole string or key, ' +
      "wherever, whatever its shape; other ids are the client's own",
    async () => {
      const { owner, workspaceId } = await createTenant();
      const project = await newProject(owner.token, workspaceId, 'Orphan', videoDocument([randomUUID()]));
      // An id that is no asset of the project (the client's own, or another project's) changes nothing.
      expect(project).toEqual(expect.objectContaining({ sync_status: 'synced', attention_reason: '' }));
      const [inValue, asKey, inText] = [
        await newAsset(owner.token, project.id, workspaceId),
        await newAsset(owner.token, project.id, workspaceId),
        await newAsset(owner.token, project.id, workspaceId),
      ];
      const document = {
        scenes: [{ layers: [{ media: { ref: inValue.id.toUpperCase() } }] }],
        cache: { [asKey.id]: { thumbnails: [1, 2] } },
        notes: `remember to replace ${inText.id}`,
      };
      const replaced = await replaceProject(owner.token, project.id, { workspace_id: workspaceId, document, expected_head_revision: 1 });
      expect(replaced.body).toEqual(expect.objectContaining({ sync_status: 'pending', attention_reason: '', document }));
      const required = async () =>
        Object.fromEntries(
          (await call('GET', `/video-projects/${project.id}/assets`, { token: owner.token })).body.assets.map(
            (a: { id: string; required: boolean }) => [a.id, a.required],
          ),
        );
      expect(await required()).toEqual({ [inValue.id]: true, [asKey.id]: true, [inText.id]: false });
      // E19 back to revision 1: nothing required, synced again.
      const restored = await call('POST', `/video-projects/${project.id}/restore-revision`, {
        token: owner.token,
        body: { workspace_id: workspaceId, revision: 1 },
      });
      expect(restored.body).toEqual(expect.objectContaining({ head_revision: 3, sync_status: 'synced' }));
      expect(await required()).toEqual({ [inValue.id]: false, [asKey.id]: false, [inText.id]: false });
    },
  );

  it('another tenant replays every asset route and E17 with the asset: 404 / 422, and nothing changes', async () => {
    const { owner, workspaceId } = await createTenant();
    const intruder = await createTenant();
    const project = await newProject(owner.token, workspaceId);
    const asset = await newAsset(owner.token, project.id, workspaceId);
    const url = `/video-projects/${project.id}/assets/${asset.id}`;
    await expectTenantIsolation({
      url,
      ownerToken: owner.token,
      intruderToken: intruder.owner.token,
      ownerView: [url, `/video-projects/${project.id}/assets`],
      attempts: [
        { method: 'DELETE' },
        { method: 'GET', path: `/video-projects/${project.id}/assets` },
        {
          method: 'POST',
          path: `/video-projects/${project.id}/assets`,
          body: { workspace_id: workspaceId, original_filename: 'a.mp4', mime_type: 'video/mp4', size: 10 },
        },
        {
          method: 'POST',
          path: '/media/upload-session',
          body: { workspace_id: workspaceId, filename: 'a.mp4', size: asset.size, project_asset_id: asset.id },
          status: 403,
        },
      ],
    });
    const problem = expectProblem(
      await openSession(intruder.owner.token, {
        workspace_id: intruder.workspaceId,
        filename: 'a.mp4',
        size: asset.size,
        project_asset_id: asset.id,
      }),
      422,
    );
    expect(locations(problem)).toEqual(['body.project_asset_id']);
  });
});
